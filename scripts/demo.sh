#!/usr/bin/env bash
# The main job: compile an example GEMM through the tgemm pipeline to PTX and
# a launch manifest, show what came out, and run it where a GPU is present.
set -euo pipefail
build=${1:-build}
bin="$build/bin"
out="$build/demo"
mkdir -p "$out"

# The wmma and ptx families compile the example with its config; wgmma
# (sm_90a) takes a tile of warpgroups: the same GEMM with that tile.
for leg in "wmma sm_90 examples/gemm-f16-f32.mlir" \
           "ptx sm_90 examples/gemm-f16-f32.mlir" \
           "wgmma sm_90a examples/gemm-f16-f32-wgmma.mlir"; do
  read -r lowering chip example <<< "$leg"
  name="gemm-f16-f32-$lowering"
  echo
  echo "== $example"
  grep -v '^//' "$example"
  echo "== tgemm-opt --tgemm-pipeline=\"lowering=$lowering chip=$chip\" | tgemm-translate"
  "$bin/tgemm-opt" "$example" --tgemm-pipeline="lowering=$lowering chip=$chip" \
    -o "$out/$name.mlir"
  "$bin/tgemm-translate" --emit=ptx "$out/$name.mlir" -o "$out/$name.ptx"
  "$bin/tgemm-translate" --emit=manifest "$out/$name.mlir" -o "$out/$name.json"
  echo "wrote $out/$name.ptx ($(wc -l < "$out/$name.ptx") lines) and $out/$name.json"
  echo "-- tensor-core and memory instructions in the PTX:"
  grep -oE '\b(wmma|wgmma|mma|ldmatrix|cp\.async)\.[a-z0-9._]*|(ld|st)\.(global|shared)[a-z0-9.]*' \
    "$out/$name.ptx" | sort | uniq -c | sort -rn
  echo "-- launch manifest:"
  python3 -c 'import json,sys; k=json.load(open(sys.argv[1]))["kernels"][0]; print("  ".join("%s=%s" % (x, k[x]) for x in ("name","chip","lowering","grid","block","dynamic_shared_memory")))' "$out/$name.json"
  ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
  if [ -x "$ptxas" ]; then
    echo "-- ptxas -v:"
    "$ptxas" -arch="$chip" -v "$out/$name.ptx" -o "$out/$name.cubin" 2>&1 | grep -E 'registers|spill'
  fi
  if [ -x "$bin/tgemm-run" ] && nvidia-smi -L >/dev/null 2>&1; then
    echo "-- tgemm-run on the GPU:"
    "$bin/tgemm-run" "$out/$name.ptx" --manifest "$out/$name.json" \
      --m 4096 --n 4096 --k 4096 --check
  else
    echo "-- no GPU here: not run (tgemm-run runs it where one is present)"
  fi
done

echo
echo "== which instruction family can compile each example, per chip (tgemm-check-target)"
chips=(sm_80 sm_86 sm_89 sm_90 sm_90a)
printf '%-28s %-8s' example family
printf ' %-6s' "${chips[@]}"
echo
for f in examples/*.mlir; do
  for lowering in wmma ptx wgmma; do
    family=$(case $lowering in ptx) echo mma.sync ;; *) echo "$lowering" ;; esac)
    printf '%-28s %-8s' "$(basename "$f" .mlir)" "$family"
    for chip in "${chips[@]}"; do
      if "$bin/tgemm-opt" "$f" --tgemm-attach-target="chip=$chip family=$lowering" \
          --tgemm-select-config --tgemm-check-target \
          -o /dev/null 2>/dev/null; then
        printf ' %-6s' yes
      else
        printf ' %-6s' -
      fi
    done
    echo
  done
done
