"""The web pages of evenings and games, one module per use case: thin views over the
games selectors and services.

- ``evenings``: the club's evenings, opening, closing, reopening, deleting one, a
  player getting up, importing records;
- ``recording``: dealing the next game and recording it card by card (the page that
  ``static/js/record.js`` draws);
- ``replay``: stepping through a game trick by trick;
- ``refusals``: a service's refusal put on the page in plain words.

Who sees what follows ``clubs.permissions``: anonymous visitors are sent to the
login page, non-members of the club get a 404, members read, scorers record.
"""
