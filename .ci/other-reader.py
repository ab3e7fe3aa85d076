"""Reads what `boardsight replay` writes with python-chess, another program's PGN reader,
and checks every game against the corpus answers."""
import glob
import io
import json
import subprocess
import sys

import chess.pgn

binary, corpus = sys.argv[1], sys.argv[2]
sessions = games_checked = 0
for log in sorted(glob.glob(f"{corpus}/*.log")):
    truth = json.load(open(log[: -len(".log")] + ".truth.json"))
    pgn = subprocess.run([binary, "replay", log], capture_output=True, text=True, check=True).stdout
    stream = io.StringIO(pgn)
    games = []
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            sys.exit(f"{log}: python-chess found errors: {game.errors}")
        for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
            if tag not in game.headers:
                sys.exit(f"{log}: no {tag} tag")
        games.append([m.uci() for m in game.mainline_moves()])
    if games != truth["games"]:
        sys.exit(f"{log}: python-chess read other moves than the truth")
    sessions += 1
    games_checked += len(games)
print(f"other reader: python-chess read {games_checked} games of {sessions} sessions back exactly")
