"""The text console: reading what people type, what a line means, and what reaches a terminal."""
