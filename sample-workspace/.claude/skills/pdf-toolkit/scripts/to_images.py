"""to images for PDF files."""
import sys

print("to_images", sys.argv[1:])
