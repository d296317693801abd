"""The Campanile screens of the touchscreen: the board, the valuation, the 2-player flag table."""
