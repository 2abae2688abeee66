"""What perfect play means, asked of the engine: sessions, the solve, outcome ladders, lines."""
