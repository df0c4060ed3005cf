"""metadata for PDF files."""
import sys

print("metadata", sys.argv[1:])
