//! FIDE pairing engines: the Dutch system (rule sets dutch-2017 and dutch-2025), pure and deterministic.
