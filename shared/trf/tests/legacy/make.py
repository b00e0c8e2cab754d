#!/usr/bin/env python3
"""Writes the legacy-TRF corpus: one small Swiss tournament (the normalised twin, TRF16
layout) and the same tournament as older programs write it, one variation per file.

Each NAME.trf has a NAME.twin.trf: the file a TRF16-conforming writer produces for the same
tournament. Run from this directory: python3 make.py (deterministic; the files are committed).
"""
import os
import random
import subprocess
import tempfile

ARBITER = os.environ.get("ARBITER", "../../../../target/debug/arbiter")

RNG = random.Random(12)
PLAYERS = [
    # id, sex, title, name, rating, fed, fide, birth
    (1, "m", "GM", "Müller, Jürgen", 2580, "GER", "4600001", "1969/12/06"),
    (2, "w", "IM", "Ibáñez, Lucía", 2455, "ESP", "2200002", "1993/12/20"),
    (3, "m", "FM", "Åström, Nils", 2390, "SWE", "1700003", "1988/04/01"),
    (4, "m", "", "Škoda, Petr", 2310, "CZE", "300004", "1975/01/15"),
    (5, "w", "", "Dubois, Amélie", 2250, "FRA", "600005", "2001/06/30"),
    (6, "m", "", "Rossi, Marco", 2190, "ITA", "800006", "1999/02/28"),
    (7, "m", "", "Kowalski, Jan", 2120, "POL", "1100007", "1990/09/09"),
    (8, "w", "", "Novak, Eva", 2050, "SLO", "14600008", "1985/03/03"),
    (9, "m", "", "Silva, João", 1980, "POR", "1900009", "2004/11/11"),
    (10, "m", "", "Smith, Tom", 1910, "ENG", "400010", "1970/07/07"),
    (11, "w", "", "Horváth, Zsófia", 1850, "HUN", "700011", "2006/05/05"),
    (12, "m", "", "Jensen, Lars", 1790, "DEN", "1400012", "1960/08/08"),
    (13, "m", "", "Brown, Sam", 1700, "USA", "2000013", "2010/10/10"),
]
ROUND_DATES = [(13, 9, 10), (13, 9, 11), (13, 9, 12)]
ROUNDS_PLAYED = 3
WITHDRAWN = 12  # after round 1
HALF_BYE = (11, 2)  # player 11 asked for a half-point bye in round 2
ABSENT = (10, 3)  # player 10 absent (zero-point bye) in round 3
FORFEIT_ROUND = 3


def play():
    """Rounds of (white, black, result of white) plus byes, each round paired by
    `arbiter pair` (so that `arbiter check` finds every round identical), results drawn by a
    seeded generator, the last round's first board a forfeit."""
    ids = [p[0] for p in PLAYERS]
    rounds = []
    for r in range(1, ROUNDS_PLAYED + 1):
        byes = {}
        if r > 1:
            byes[WITHDRAWN] = "Z"
        if HALF_BYE[1] == r:
            byes[HALF_BYE[0]] = "H"
        if ABSENT[1] == r:
            byes[ABSENT[0]] = "Z"
        # The tournament so far, with this round's announced byes, paired by arbiter.
        partial = rounds + [([], byes)]
        score = scores(partial)
        lines = header([]) + [
            player_line(p, bl=blocks_of(p[0], partial), points=score[p[0]]) for p in PLAYERS
        ] + ["XXR 5", "XXC white1"]
        with tempfile.NamedTemporaryFile("w", suffix=".trf", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        out = subprocess.run(
            [ARBITER, "pair", "--system", "dutch-2025", f.name],
            check=True, capture_output=True, text=True,
        ).stdout.split("\n")
        os.unlink(f.name)
        games = []
        for line in out[1:]:
            if not line.strip():
                continue
            w, b = map(int, line.split())
            if b == 0:
                byes[w] = "U"
            else:
                games.append((w, b, RNG.choice(["1", "=", "0"])))
        if r == FORFEIT_ROUND:
            w, b, _ = games[0]
            games[0] = (w, b, "+")
        rounds.append((games, byes))
    return rounds, scores(rounds)


def scores(rounds):
    score = {p[0]: 0.0 for p in PLAYERS}
    for games, byes in rounds:
        for w, bl, res in games:
            score[w] += {"1": 1, "=": 0.5, "0": 0, "+": 1}[res]
            score[bl] += {"1": 0, "=": 0.5, "0": 1, "+": 0}[res]
        for p, c in byes.items():
            score[p] += {"U": 1, "H": 0.5, "Z": 0}[c]
    return score


OTHER = {"1": "0", "0": "1", "=": "=", "+": "-"}


def blocks(pid):
    out = blocks_of(pid, ROUNDS)
    # Round 4, the round to pair: the withdrawn player is announced absent.
    if pid == WITHDRAWN:
        out.append(["0000", "-", "Z"])
    return out


def blocks_of(pid, rounds):
    out = []
    for games, byes in rounds:
        if pid in byes:
            out.append(["0000", "-", byes[pid]])
            continue
        for w, b, res in games:
            if pid == w:
                out.append([f"{b:4d}", "w", res])
            elif pid == b:
                out.append([f"{w:4d}", "b", OTHER[res]])
    return out


def player_line(p, birth=None, fide=None, sex=None, bl=None, points=None):
    pid, sx, title, name, rating, fed, fide_id, bd = p
    points = SCORE[pid] if points is None else points
    birth = bd if birth is None else birth
    fide = fide_id if fide is None else fide
    sx = sx if sex is None else sex
    s = (
        f"001 {pid:4d} {sx}{title:>3} {name:<33} {rating:4d} {fed:<3} {fide:>11} "
        f"{birth:<10} {points:4.1f} {'':4}"
    )
    for blk in bl if bl is not None else blocks(pid):
        s += "  " + (f"{blk[0]} {blk[1]} {blk[2]}" if blk else " " * 8)
    return s.rstrip()


def date_line(texts):
    return ("132" + " " * 88 + "  ".join(texts)).rstrip()


def header(dates):
    return [
        "012 Legacy Open",
        "022 Testville",
        "042 2013/09/10",
        "092 FIDE_DUTCH_2025",
        date_line(dates),
    ]


def twin_lines(players=PLAYERS, dates=None):
    dates = dates or [f"{y:02d}/{m:02d}/{d:02d}" for y, m, d in ROUND_DATES]
    lines = header(dates)
    lines += [player_line(p) for p in players]
    lines += ["XXR 5", "XXC white1"]
    return lines


def write(name, variant, twin, encoding="utf-8", ending="\r\n"):
    with open(f"{name}.trf", "wb") as f:
        f.write((ending.join(variant) + ending).encode(encoding))
    with open(f"{name}.twin.trf", "wb") as f:
        f.write((ending.join(twin) + ending).encode("utf-8"))


def with_player(lines, pid, new):
    i = next(k for k, l in enumerate(lines) if l.startswith(f"001 {pid:4d} "))
    out = list(lines)
    out[i] = new
    return out


def pl(pid):
    return next(p for p in PLAYERS if p[0] == pid)


def main():
    global ROUNDS, SCORE
    ROUNDS, SCORE = play()
    base = twin_lines()
    # Round dates: day-first with dots (Swiss-Manager's European setting).
    write("dates-dotted", twin_lines(dates=["10.09.13", "11.09.13", "12.09.13"]), base)
    # Month-first with dots: "11.25.02" (a day-first reading would need month 25).
    write(
        "dates-month-first",
        twin_lines(dates=["11.25.02", "11.26.02", "11.27.02"]),
        twin_lines(dates=["02/11/25", "02/11/26", "02/11/27"]),
    )
    # Every order possible: "01.09.30"; the dot convention (day first) decides.
    write(
        "dates-ambiguous",
        twin_lines(dates=["01.09.30", "02.09.30", "03.09.30"]),
        twin_lines(dates=["30/09/01", "30/09/02", "30/09/03"]),
    )
    # ISO dates, four-digit years, one blank between them (out of their 10-column slots).
    v = base[:4] + [("132" + " " * 88 + "2013-09-10 2013-09-11 2013-09-12")] + base[5:]
    write("dates-iso", v, base)
    # Birth dates: dots, dashes, day first, a placeholder.
    v = with_player(base, 1, player_line(pl(1), birth="1969.12.06"))
    v = with_player(v, 2, player_line(pl(2), birth="1993-12-20"))
    v = with_player(v, 3, player_line(pl(3), birth="01.04.1988"))
    v = with_player(v, 4, player_line(pl(4), birth=".  ."))
    t = with_player(base, 4, player_line(pl(4), birth=""))
    write("birth-dates", v, t)
    # Malformed fields nothing computes from: FIDE id with a dash, unknown sex letter.
    v = with_player(base, 5, player_line(pl(5), fide="600-005"))
    v = with_player(v, 6, player_line(pl(6), sex="?"))
    t = with_player(base, 5, player_line(pl(5), fide=""))
    t = with_player(t, 6, player_line(pl(6), sex=" "))
    write("malformed-fields", v, t)

    def legacy(code_from, code_to):
        v = list(base)
        for pid in [p[0] for p in PLAYERS]:
            bl = blocks(pid)
            changed = False
            for blk in bl:
                if blk[0] == "0000" and blk[2] == code_to:
                    blk[2] = code_from
                    changed = True
            if changed:
                v = with_player(v, pid, player_line(pl(pid), bl=bl))
        return v

    # Half-point bye written as a draw against nobody.
    write("bye-half-as-draw", legacy("=", "H"), base)
    # Pairing-allocated bye written as a forfeit win against nobody.
    write("bye-pab-as-forfeit", legacy("+", "U"), base)
    # Zero-point byes (withdrawal, absence) written as a forfeit loss against nobody.
    write("bye-zero-as-forfeit", legacy("-", "Z"), base)
    def blank_byes(code, written):
        """Each `0000 - code` block written as `written` (None: an all-blank block): the bye
        is only in the points column, as some club programs export it."""
        v = list(base)
        for pid in [p[0] for p in PLAYERS]:
            bl = blocks(pid)
            if any(blk[0] == "0000" and blk[2] == code for blk in bl):
                bl = [written if blk[0] == "0000" and blk[2] == code else blk for blk in bl]
                v = with_player(v, pid, player_line(pl(pid), bl=bl))
        return v

    # Half-point bye written as a blank round, counted only in the points column.
    write("bye-half-blank", blank_byes("H", None), base)
    # Pairing-allocated bye written as `0000` without a result, counted only in the points.
    write("bye-pab-blank", blank_byes("U", ["0000", "-", " "]), base)
    # Withdrawn player's columns left blank in the rounds after his withdrawal.
    bl = blocks(WITHDRAWN)
    bl[1] = None
    bl[2] = None
    write("withdrawn-blank", with_player(base, WITHDRAWN, player_line(pl(WITHDRAWN), bl=bl)), base)
    # A forfeit whose colour only one line gives.
    games, _ = ROUNDS[FORFEIT_ROUND - 1]
    w, b, _ = games[0]
    bl = blocks(b)
    bl[FORFEIT_ROUND - 1][1] = "-"
    write("forfeit-colour-one-sided", with_player(base, b, player_line(pl(b), bl=bl)), base)
    # A forfeit written with colour - on both lines.
    v = with_player(base, b, player_line(pl(b), bl=bl))
    blw = blocks(w)
    blw[FORFEIT_ROUND - 1][1] = "-"
    v = with_player(v, w, player_line(pl(w), bl=blw))
    write("forfeit-colourless", v, base)
    # Windows-1252 (Š is 0x8A there) and Latin-1 files.
    write("encoding-cp1252", base, base, encoding="cp1252")
    latin = [(p[0], p[1], p[2], p[3].replace("Š", "S"), *p[4:]) for p in PLAYERS]
    lt = twin_lines(players=latin)
    write("encoding-latin1", lt, lt, encoding="latin-1")
    # Everything at once, LF line ends, as a Vega-era file might be.
    v = twin_lines(dates=["10.09.13", "11.09.13", "12.09.13"])
    for pid in [p[0] for p in PLAYERS]:
        bl = blocks(pid)
        for k, blk in enumerate(bl):
            if blk[0] == "0000":
                blk[2] = {"H": "=", "U": "+", "Z": "-"}[blk[2]]
        if pid == WITHDRAWN:
            bl[1] = None
            bl[2] = None
        birth = pl(pid)[7].replace("/", ".")
        v = with_player(v, pid, player_line(pl(pid), bl=bl, birth=birth))
    write("all-at-once", v, base, encoding="cp1252", ending="\n")
    round_robin()


def round_robin():
    """A six-player round robin by the Berger table (`arbiter berger 6`), with two 013 team
    records, as an older program writes it (dotted dates, Latin-1), and its twin."""
    table = subprocess.run(
        [ARBITER, "berger", "6"], check=True, capture_output=True, text=True
    ).stdout.split("\n")
    rounds = []
    for line in table:
        if line.strip():
            games = [tuple(map(int, g.split("-"))) for g in line.split()[1:]]
            rounds.append([(w, b, RNG.choice(["1", "=", "0"])) for w, b in games])
    global ROUNDS, SCORE
    saved = ROUNDS, SCORE
    ROUNDS = [(g, {}) for g in rounds]
    players = [(p[0], *p[1:3], p[3].replace("Š", "S"), *p[4:]) for p in PLAYERS[:6]]
    SCORE = scores(ROUNDS)
    dates = [(13, 10, d) for d in range(1, 6)]

    def lines(date_texts, birth, teams=None):
        out = [
            "012 Legacy Round Robin",
            "022 Testville",
            "042 2013/10/01",
            "062 6",
            "092 Individual: Round-Robin",
            date_line(date_texts),
        ]
        out += [player_line(p, birth=birth(p)) for p in players]
        out += teams or [
            "013 Northern Club                    1    2    3",
            "013 Southern Club                    4    5    6",
        ]
        return out

    twin = lines([f"{y:02d}/{m:02d}/{d:02d}" for y, m, d in dates], lambda p: p[7])
    variant = lines(
        [f"{d:02d}.{m:02d}.{y:02d}" for y, m, d in dates], lambda p: p[7].replace("/", "-")
    )
    write("round-robin-teams", variant, twin, encoding="latin-1")
    # Team lines written to the name's own length, the numbers one blank apart.
    shifted = lines(
        [f"{y:02d}/{m:02d}/{d:02d}" for y, m, d in dates],
        lambda p: p[7],
        teams=["013 Northern Club  1 2 3", "013 Southern Club  4 5 6"],
    )
    write("round-robin-team-lines-shifted", shifted, twin)
    ROUNDS, SCORE = saved


if __name__ == "__main__":
    main()
