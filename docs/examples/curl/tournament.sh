#!/usr/bin/env bash
# A whole Swiss tournament driven through arbiter's JSON API with curl alone:
# POST /api/v1/<package.Service>/<Method>, the body in the proto3 JSON mapping.
#
#   HTTP=http://127.0.0.1:7080 TOKEN_FILE=data/admin.token bash tournament.sh
#
# The same scenario as the Python and Node examples (4 players, 2 rounds, Dutch), with a
# tournament id chosen by the client. Prints the final standings as the API answers them.
set -euo pipefail
HTTP="${HTTP:-http://127.0.0.1:7080}"
TOKEN="$(cat "${TOKEN_FILE:-data/admin.token}")"
T="${TOURNAMENT:-example-open-curl}"

# One call: prints the answer; a refusal prints its status and details on stderr and fails.
call() {
  curl -sSN --fail-with-body -X POST "$HTTP/api/v1/$1" \
    -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d "$2"
}

call arbiter.registration.v1.Registration/CreateTournament '{
  "header": {"tournamentId": "'"$T"'", "commandId": "create"},
  "tournament": {
    "name": "Example Open", "place": "Online", "federation": "NOR",
    "startDate": {"year": 2026, "month": 12, "day": 5},
    "endDate": {"year": 2026, "month": 12, "day": 6},
    "chiefArbiter": {"name": "Arbiter, Chief", "title": "IA"},
    "pairingSystem": "PAIRING_SYSTEM_DUTCH", "ruleSet": "dutch-2025", "rounds": 2,
    "initialColor": "COLOR_WHITE", "ratingKind": "RATING_KIND_STANDARD"
  }
}' >/dev/null

i=0
for player in 'Carlsen, Magnus:2830' 'Caruana, Fabiano:2795' 'Nakamura, Hikaru:2802' 'Gukesh, D:2777'; do
  i=$((i + 1))
  call arbiter.registration.v1.Registration/RegisterPlayer '{
    "header": {"tournamentId": "'"$T"'", "commandId": "register-'$i'"},
    "player": {"name": "'"${player%:*}"'", "rating": '"${player#*:}"', "federation": "NOR"}
  }' >/dev/null
done

results=(BOARD_RESULT_WHITE_WINS BOARD_RESULT_DRAW)
for round in 1 2; do
  call arbiter.round_director.v1.RoundDirector/StartRound \
    '{"header": {"tournamentId": "'"$T"'", "commandId": "start-'$round'"}, "round": '$round'}' >/dev/null
  # WatchTournament streams the state as it changes (one JSON object a line): wait for the
  # proposal without polling. The stream is left behind; it ends at its next line.
  grep -m1 -q '"PHASE_PAIRING_PROPOSED"' < <(call arbiter.round_director.v1.RoundDirector/WatchTournament \
    '{"tournament": {"tournamentId": "'"$T"'"}}')
  call arbiter.round_director.v1.RoundDirector/PublishPairing \
    '{"header": {"tournamentId": "'"$T"'", "commandId": "publish-'$round'"}, "round": '$round'}' >/dev/null
  call arbiter.reporting.v1.Reporting/GetPairings \
    '{"tournament": {"tournamentId": "'"$T"'"}, "round": '$round'}' >&2
  echo >&2
  for board in 1 2; do
    call arbiter.round_director.v1.RoundDirector/RecordResult '{
      "header": {"tournamentId": "'"$T"'", "commandId": "result-'$round-$board'"},
      "round": '$round', "board": '$board', "result": "'"${results[$((board - 1))]}"'"
    }' >/dev/null
  done
  call arbiter.round_director.v1.RoundDirector/CloseRound \
    '{"header": {"tournamentId": "'"$T"'", "commandId": "close-'$round'"}, "round": '$round'}' >/dev/null
done

# A refusal: HTTP 400 and the status with its google.rpc details (ErrorInfo's reason).
call arbiter.round_director.v1.RoundDirector/CloseRound \
  '{"header": {"tournamentId": "'"$T"'", "commandId": "close-again"}, "round": 2}' >&2 || true
echo >&2

call arbiter.reporting.v1.Reporting/GetStandings '{"tournament": {"tournamentId": "'"$T"'"}}'
echo
