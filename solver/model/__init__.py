"""The lowest layer: value types (cards, the compiled rules, outcomes) and the referee that plays them."""
