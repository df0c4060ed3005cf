scripts/lib/util.py
