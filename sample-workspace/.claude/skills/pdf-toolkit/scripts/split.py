"""split for PDF files."""
import sys

print("split", sys.argv[1:])
