"""Rules learned by stich tactic --learn: follow the advice where the condition holds,
otherwise play another card (stich.tactics.learned)."""

from stich.tactics.learned import learned_tactic

TACTICS = {
    'learned.no_win_on_noncounter.depth1': learned_tactic('learned.no_win_on_noncounter.depth1', 'elfern.no_win_on_noncounter', [[['stock_left', '>', 17]]],
                                  'follow elfern.no_win_on_noncounter when the stock has more than 17 cards; otherwise lead a card nothing in sight can beat (any other card if none; when following, another card)', 'elfern', None),
    'learned.no_win_on_noncounter.depth3': learned_tactic('learned.no_win_on_noncounter.depth3', 'elfern.no_win_on_noncounter', [[['stock_left', '<=', 17], ['stock_left', '<=', 11], ['seat', '<=', 1]], [['stock_left', '>', 17]]],
                                  'follow elfern.no_win_on_noncounter when the stock has at most 17 cards and the stock has at most 11 cards and you sit in seat 1 or lower; or when the stock has more than 17 cards; otherwise lead a card nothing in sight can beat (any other card if none; when following, another card)', 'elfern', None),
}
