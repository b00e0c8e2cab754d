#!/usr/bin/env python3
"""A whole Swiss tournament driven through arbiter's API from Python.

The same scenario runs over any of the three transports the server offers:

  --transport grpc      native gRPC (grpcio) on the gRPC port
  --transport grpc-web  gRPC-Web over HTTP/1.1 on the gRPC port (what a browser speaks)
  --transport json      JSON over HTTP on the HTTP port: POST /api/v1/<package.Service>/<Method>

The messages are the classes protoc generates from proto/ (see the API examples page):

  python3 -m grpc_tools.protoc -I proto --python_out=OUT $(find proto -name '*.proto')
  PYTHONPATH=OUT python3 tournament.py --transport grpc --grpc 127.0.0.1:7070 \
      --http 127.0.0.1:7080 --token-file data/admin.token

It creates a 4-player, 2-round Dutch tournament, registers the players, and for each round
starts it, waits for the pairing worker's proposal on the WatchTournament stream (pushed, not
polled), publishes it, records the results and closes the round. It prints one JSON document:
the pairings, the final standings and the kinds of the events in the tournament's log.
"""

import argparse
import decimal
import json
import struct
import sys
import urllib.error
import urllib.parse
import urllib.request

from google.protobuf import json_format

from arbiter.common.v1 import common_pb2 as common
from arbiter.events.v1 import events_pb2 as ev
from arbiter.registration.v1 import registration_pb2 as reg
from arbiter.reporting.v1 import reporting_pb2 as rep
from arbiter.round_director.v1 import round_director_pb2 as rd

REGISTRATION = "arbiter.registration.v1.Registration"
ROUND_DIRECTOR = "arbiter.round_director.v1.RoundDirector"
REPORTING = "arbiter.reporting.v1.Reporting"


class Refused(Exception):
    """A refusal: the gRPC code's name, the message and the google.rpc ErrorInfo reason."""

    def __init__(self, status, message, reason=""):
        super().__init__(f"{status} {reason}: {message}")
        self.status, self.message, self.reason = status, message, reason


class Grpc:
    """Native gRPC with grpcio: one channel, the token as call metadata."""

    def __init__(self, grpc_addr, http_addr, token):
        import grpc

        self.grpc = grpc
        self.channel = grpc.insecure_channel(grpc_addr)
        self.metadata = [("authorization", f"Bearer {token}")]

    def call(self, service, method, request, reply_class):
        rpc = self.channel.unary_unary(
            f"/{service}/{method}",
            request_serializer=type(request).SerializeToString,
            response_deserializer=reply_class.FromString,
        )
        try:
            return rpc(request, metadata=self.metadata, timeout=30)
        except self.grpc.RpcError as e:
            raise Refused(e.code().name, e.details()) from None

    def stream(self, service, method, request, reply_class):
        rpc = self.channel.unary_stream(
            f"/{service}/{method}",
            request_serializer=type(request).SerializeToString,
            response_deserializer=reply_class.FromString,
        )
        call = rpc(request, metadata=self.metadata, timeout=60)
        try:
            yield from call
        finally:
            call.cancel()


class GrpcWeb:
    """gRPC-Web (binary) over HTTP/1.1: length-prefixed messages, the status in a trailer frame."""

    def __init__(self, grpc_addr, http_addr, token):
        self.base = f"http://{grpc_addr}"
        self.token = token

    def _open(self, service, method, request):
        body = request.SerializeToString()
        req = urllib.request.Request(
            f"{self.base}/{service}/{method}",
            data=b"\x00" + struct.pack(">I", len(body)) + body,
            headers={
                "content-type": "application/grpc-web+proto",
                "x-grpc-web": "1",
                "authorization": f"Bearer {self.token}",
            },
            method="POST",
        )
        return urllib.request.urlopen(req, timeout=60)

    @staticmethod
    def _frames(response):
        while True:
            head = response.read(5)
            if len(head) < 5:
                return
            flag, length = head[0], struct.unpack(">I", head[1:])[0]
            yield flag, response.read(length)

    @staticmethod
    def _trailers(data):
        fields = dict(
            line.split(":", 1) for line in data.decode().split("\r\n") if ":" in line
        )
        return {k.strip().lower(): urllib.parse.unquote(v.strip()) for k, v in fields.items()}

    def _messages(self, response, reply_class):
        status = response.headers.get("grpc-status")
        if status not in (None, "0"):  # a trailers-only refusal: the status is in the headers
            raise Refused(_code_name(int(status)), urllib.parse.unquote(response.headers.get("grpc-message", "")))
        for flag, data in self._frames(response):
            if flag & 0x80:
                t = self._trailers(data)
                if t.get("grpc-status", "0") != "0":
                    raise Refused(_code_name(int(t["grpc-status"])), t.get("grpc-message", ""))
                return
            yield reply_class.FromString(data)

    def call(self, service, method, request, reply_class):
        with self._open(service, method, request) as response:
            replies = list(self._messages(response, reply_class))
        return replies[0]

    def stream(self, service, method, request, reply_class):
        with self._open(service, method, request) as response:
            yield from self._messages(response, reply_class)


class Json:
    """JSON over HTTP: the proto3 JSON mapping of the same messages."""

    def __init__(self, grpc_addr, http_addr, token):
        self.base = f"http://{http_addr}/api/v1"
        self.token = token

    def _open(self, service, method, request):
        req = urllib.request.Request(
            f"{self.base}/{service}/{method}",
            data=json_format.MessageToJson(request).encode(),
            headers={"content-type": "application/json", "authorization": f"Bearer {self.token}"},
            method="POST",
        )
        try:
            return urllib.request.urlopen(req, timeout=60)
        except urllib.error.HTTPError as e:
            status = json.loads(e.read())
            raise Refused(status["status"], status["message"], _reason(status)) from None

    def call(self, service, method, request, reply_class):
        with self._open(service, method, request) as response:
            return json_format.Parse(response.read(), reply_class())

    def stream(self, service, method, request, reply_class):
        with self._open(service, method, request) as response:
            for line in response:
                message = json.loads(line)
                if "error" in message:
                    e = message["error"]
                    raise Refused(e["status"], e["message"], _reason(e))
                yield json_format.ParseDict(message, reply_class())


def _reason(status):
    for d in status.get("details", []):
        if d.get("@type", "").endswith("google.rpc.ErrorInfo"):
            return d["reason"]
    return ""


def _code_name(code):
    names = ["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
             "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
             "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
             "UNAUTHENTICATED"]
    return names[code] if 0 <= code < len(names) else str(code)


PLAYERS = [("Carlsen, Magnus", 2830), ("Caruana, Fabiano", 2795),
           ("Nakamura, Hikaru", 2802), ("Gukesh, D", 2777)]
# The result of board k, in every round: 1-0, ½-½, 0-1, ...
RESULTS = [ev.BOARD_RESULT_WHITE_WINS, ev.BOARD_RESULT_DRAW, ev.BOARD_RESULT_BLACK_WINS]


def decimal_text(d):
    """A Decimal as the rules print it: units / 10^scale, exactly ("1.5")."""
    return str(decimal.Decimal(d.units).scaleb(-d.scale))


def header(tid, command_id):
    return common.CommandHeader(tournament_id=tid, command_id=command_id)


def run(api):
    created = api.call(REGISTRATION, "CreateTournament", reg.CreateTournamentRequest(
        # An empty tournament_id: the server chooses one and answers it.
        header=header("", "create"),
        tournament=reg.TournamentSettings(
            name="Example Open", place="Online", federation="NOR",
            start_date=ev.Date(year=2026, month=12, day=5),
            end_date=ev.Date(year=2026, month=12, day=6),
            chief_arbiter=ev.Arbiter(name="Arbiter, Chief", title="IA"),
            pairing_system=ev.PAIRING_SYSTEM_DUTCH, rule_set="dutch-2025", rounds=2,
            initial_color=ev.COLOR_WHITE, rating_kind=ev.RATING_KIND_STANDARD,
        ),
    ), common.CommandResult)
    tid = created.tournament_id
    for i, (name, rating) in enumerate(PLAYERS, 1):
        api.call(REGISTRATION, "RegisterPlayer", reg.RegisterPlayerRequest(
            header=header(tid, f"register-{i}"),
            player=reg.PlayerDetails(name=name, rating=rating, federation="NOR"),
        ), common.CommandResult)

    pairings = {}
    for rnd in (1, 2):
        api.call(ROUND_DIRECTOR, "StartRound", rd.StartRoundRequest(
            header=header(tid, f"start-{rnd}"), round=rnd), common.CommandResult)
        # Pushed: every change of the tournament's state, until the proposal is there.
        watch = api.stream(ROUND_DIRECTOR, "WatchTournament", rd.GetTournamentRequest(
            tournament=common.TournamentRef(tournament_id=tid)), rd.TournamentState)
        for state in watch:
            if state.current_round == rnd and state.phase == rd.PHASE_PAIRING_PROPOSED:
                break
        watch.close()
        api.call(ROUND_DIRECTOR, "PublishPairing", rd.PublishPairingRequest(
            header=header(tid, f"publish-{rnd}"), round=rnd), common.CommandResult)
        published = api.call(REPORTING, "GetPairings", rep.GetPairingsRequest(
            tournament=common.TournamentRef(tournament_id=tid), round=rnd), rep.RoundPairings)
        pairings[rnd] = [[b.board.white, b.board.black] for b in published.boards]
        for b in published.boards:
            api.call(ROUND_DIRECTOR, "RecordResult", rd.RecordResultRequest(
                header=header(tid, f"result-{rnd}-{b.board.number}"), round=rnd,
                board=b.board.number, result=RESULTS[(b.board.number - 1) % len(RESULTS)],
            ), common.CommandResult)
        api.call(ROUND_DIRECTOR, "CloseRound", rd.CloseRoundRequest(
            header=header(tid, f"close-{rnd}"), round=rnd), common.CommandResult)

    # A refusal a program acts on without reading the text: the reason code.
    try:
        api.call(ROUND_DIRECTOR, "CloseRound", rd.CloseRoundRequest(
            header=header(tid, "close-again"), round=2), common.CommandResult)
        refusal = None
    except Refused as e:
        refusal = e.status

    standings = api.call(REPORTING, "GetStandings", rep.GetStandingsRequest(
        tournament=common.TournamentRef(tournament_id=tid)), rep.Standings)
    events = [
        e.payload.WhichOneof("kind")
        for e in api.stream(REPORTING, "StreamEvents",
                            rep.StreamEventsRequest(tournament=common.TournamentRef(tournament_id=tid)), ev.Envelope)
    ]
    return {
        "pairings": pairings,
        "standings": [[r.place, r.name, decimal_text(r.score)] for r in standings.rows],
        "refusal": refusal,
        "events": events,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--transport", choices=["grpc", "grpc-web", "json"], default="grpc")
    p.add_argument("--grpc", default="127.0.0.1:7070", help="the gRPC port (gRPC, gRPC-Web)")
    p.add_argument("--http", default="127.0.0.1:7080", help="the HTTP port (JSON)")
    p.add_argument("--token-file", default="data/admin.token")
    a = p.parse_args()
    token = open(a.token_file).read().strip()
    transport = {"grpc": Grpc, "grpc-web": GrpcWeb, "json": Json}[a.transport]
    try:
        result = run(transport(a.grpc, a.http, token))
    except Refused as e:
        print(f"refused: {e}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
