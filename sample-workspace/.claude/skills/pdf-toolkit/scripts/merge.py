"""merge for PDF files."""
import sys

print("merge", sys.argv[1:])
