"""Reading the user's files (deal, rule, tactic and predicate files) with limits."""
