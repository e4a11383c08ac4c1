"""What bddlc says about a model rather than about a game's value (sanity conditions, lint)."""
