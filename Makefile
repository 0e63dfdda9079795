# The two commands a new user needs (see README.md):
#   make demo    install dependencies, build, run the main job on an example
#   make check   install dependencies, build, run every test
BUILD_DIR ?= build
# Debian's interpreter, for which apt installs pybind11 and pytest: the
# Python package is built for it and its tests run with it (a pyenv or venv
# python3 first on PATH would see neither).
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || command -v python3)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=$(PYTHON)

.PHONY: all deps configure build demo check clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD_DIR)/build.ninja:
	cmake -G Ninja -S . -B $(BUILD_DIR) $(CMAKE_FLAGS)

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR)

demo: build
	@scripts/demo.sh $(BUILD_DIR)

check: build
	cmake --build $(BUILD_DIR) --target check-tgemm

clean:
	rm -rf $(BUILD_DIR)
