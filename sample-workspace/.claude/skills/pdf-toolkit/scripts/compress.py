"""compress for PDF files."""
import sys

print("compress", sys.argv[1:])
