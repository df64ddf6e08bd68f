"""The 1200x630 SVG share card. STUB: being written."""
