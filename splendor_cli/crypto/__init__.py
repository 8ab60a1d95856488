"""The cryptography of signed moves and sealed cards (issue #15), as pure functions over values.

- `group`: ristretto255 points and scalars (libsodium, through `sodium`), hashing to them;
- `sodium`: the system's libsodium through ctypes, else rbcl's ristretto255 and PyNaCl's Ed25519;
- `proofs`: Schnorr proofs of knowledge and Chaum-Pedersen proofs of equal logarithms;
- `elgamal`: threshold ElGamal on cards: the joint key, encryption, decryption shares;
- `shuffle`: a player's shuffle of an encrypted deck, bound to that deck, re-checkable from its seed;
- `shuffle_proof`: the zero-knowledge proof that a shuffle is a permutation and re-encryption
  (Terelius-Wikström, as in Verificatum), checked by every reader;
- `keys`: a player's key pair (Ed25519 to sign, ristretto255 to open cards), as TOML.

Pure: no I/O, no clock, no hidden randomness. A function that needs randomness takes a
`source` (a `Callable[[int], bytes]`: `os.urandom` in production, given by the command line).
Importing this package loads nothing: import the module you need (libsodium takes a millisecond to load).
"""
