"""The top layer: ``stich explore``, a local page to play through a deal with every card's
value.  ``position`` turns a page's moves into a checked position and its table, ``session``
keeps each answer once, ``pool`` runs the searches off the event loop, ``app`` is the
Starlette app and its checks, ``server`` binds 127.0.0.1 and runs uvicorn; ``static/`` is
the page."""
