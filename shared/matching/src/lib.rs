//! Maximum-weight matching on general graphs with exact integer weights (the pairing engines' core).
