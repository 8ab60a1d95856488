"""Sealed games: signed events, decks nobody alone knows, cards revealed by every player (pure).

A sealed game (`splendor new --sealed`) starts with `SealedAsked`. Then:

1. **Keys.** Each player joins (`PlayerJoined`) with their Ed25519 identity key and a card key
   made for this game alone (`signing.GameKey`: from randomness they keep for it, format 4 on;
   before, derived from their secret key and the game), so that publishing it at the end tells
   nothing of their other games, proving that they hold both secrets in this game's context
   (the digest of the first event, and their seat), and a fresh nonce: the game's session id
   hashes every nonce, and the shuffles, shares, deal and draws are bound to it.
2. **Shuffles.** Once every player has joined, each shuffles the game's decks once (as many as
   it declares: three for Splendor and a Duel), in any order
   (`DeckShuffled`): every card re-encrypted under the joint key (the sum of the card keys) and
   put in a new order, by a seed only they know (crypto/shuffle.py). The first shuffle starts
   from the decks in the order the game lists its cards, each card encrypted openly.
3. **The deal.** After the last shuffle, the cards the setup deals face up (a market, a
   pyramid) are revealed: each player publishes a decryption share of each, with its proof
   (`CardsShown`). With every share in, the game deals (its setup event, checked like a
   commit-then-reveal deal): the face-up cards as revealed, every other card a placeholder
   (`placeholders.py`), and what else the setup draws (nobles, a Duel's bag) from SHA-256 of the
   shares.
4. **Play.** A card dealt face up is revealed when every player's share of it is in; a card
   reserved blind from a deck gets every share but its owner's, so that the owner alone sees it,
   until they buy it (then their share reveals it to all). A turn may start only when every
   face-up card is revealed and the player to move can see every card they reserved
   (`blocked`); a player's pending shares (`owed`) ride on their next event.
5. **The end.** Once the game is over, each player publishes their card secret of the game and
   their shuffle seeds (`KeysPublished`); `audit` then re-makes every shuffle and opens every
   card.

Every event after `SealedAsked` but the setup is signed by its author (`actor`): the Ed25519
signature covers the event without its `sig` and the SHA-256 of the whole event before it
(signature included), so a signed event fixes the whole history before it. The setup is signed
by nobody: it follows from the events before it, and every reader checks that it does.

A game is played sealed only if it says so: its `Variant.sealed_cards` declares its decks, how
it deals them, where its states keep the cards and how revealed cards replace placeholders
(`projection.variant.SealedCards`); a game that declares none (None) cannot be sealed (`capability.ask`).

The modules, each named for what it does:

- `events`: the protocol's events (`SEALED_TYPES`), which every game's log may hold;
- `protocol`: the sealed table protocol (`projection/table_protocol.py`): `SealedTable`, a sealed
  game's protocol state (`Game.protocol`), the fold handlers of the events, and what the fold and
  its callers ask of it (signatures, the deal, the undo's conditions, the audit...);
- `placeholders`: the id of a card nobody has seen (`2?07`), and a setup's deck holding some;
- `capability`: what a game declares to be sealed, and the first event of a sealed game;
- `substitution`: revealed cards put in place of their placeholders, anywhere in a state or
  an event (also how a board turns another player's blind reserves face down);
- `signing`: the digests and signatures of events, a player's keys of one game, the contexts
  every proof is bound to;
- `table`: `Sealing`, where a sealed game's cryptography stands, folded event by event;
- `deal`: the setup dealt from the sealed decks;
- `reveal`: the rules of revealing (what is owed, what blocks a turn, what a seat sees alone);
- `duties`: the events a player owes the game;
- `audit`: every shuffle re-made and every card opened, once the keys are published.

This package imports nothing at import time: each module imports what it needs, and the
cryptography (crypto/) is imported inside the functions that use it, so an open game never loads
it. Pure: no I/O (randomness comes in as an argument).
"""
