scripts/run.py
