"""Rules learned by stich tactic --learn: follow the advice where the condition holds,
otherwise play another card (stich.tactics.learned)."""

from stich.tactics.learned import learned_tactic

TACTICS = {
    'learned.bare_ten.lead_at_once.depth1': learned_tactic('learned.bare_ten.lead_at_once.depth1', 'schafkopf2.bare_ten.lead_at_once', [[['opponent_shows', '==', 'must follow under']]],
                                  'lead the bare ten when the opponent must follow under it; otherwise lead a card nothing in sight can beat (any other card if none; when following, another card)', 'schafkopf2', None),
}
