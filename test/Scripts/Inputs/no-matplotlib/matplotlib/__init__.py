# Stands in for a Python without matplotlib (study-report-atomic.test).
raise ImportError("No module named 'matplotlib' (hidden by the test)")
