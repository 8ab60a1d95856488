"""What the card games of the house share: reading card tables, paying for a card, face-up rows
and decks, the colour words of the notation, and sampling what a player cannot see."""
