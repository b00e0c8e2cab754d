// A whole Swiss tournament driven through arbiter's gRPC API from Node.js, with @grpc/grpc-js
// and the .proto files of proto/ loaded at run time by @grpc/proto-loader.
//
//   npm ci && node tournament.mjs --grpc 127.0.0.1:7070 --token-file ../../../data/admin.token
//
// The same scenario as the Python example: a 4-player, 2-round Dutch tournament; each round is
// started, its proposal awaited on the WatchTournament stream, published, played and closed.
// Prints one JSON document: the pairings, the final standings, the kinds of the log's events.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => {
    if (a.startsWith("--")) pairs.push([a.slice(2), all[i + 1]]);
    return pairs;
  }, []),
);
const protoRoot = args["proto"] ?? path.join(here, "../../../proto");
const address = args["grpc"] ?? "127.0.0.1:7070";
const token = readFileSync(args["token-file"] ?? "data/admin.token", "utf8").trim();

const definition = protoLoader.loadSync(
  [
    "arbiter/registration/v1/registration.proto",
    "arbiter/round_director/v1/round_director.proto",
    "arbiter/reporting/v1/reporting.proto",
  ],
  // Field names as written in the .proto files, enums by name, oneofs with the name of the
  // field set, 64-bit integers as strings.
  { includeDirs: [protoRoot], keepCase: true, enums: String, longs: String, oneofs: true, defaults: true },
);
const api = grpc.loadPackageDefinition(definition).arbiter;
const credentials = grpc.credentials.createInsecure();
const registration = new api.registration.v1.Registration(address, credentials);
const director = new api.round_director.v1.RoundDirector(address, credentials);
const reporting = new api.reporting.v1.Reporting(address, credentials);
const metadata = new grpc.Metadata();
metadata.set("authorization", `Bearer ${token}`);

// One unary call as a promise; a refusal rejects with the gRPC status.
const call = (client, method, request) =>
  new Promise((resolve, reject) =>
    client[method](request, metadata, (err, reply) => (err ? reject(err) : resolve(reply))),
  );

// Every message of a server stream until `stop` says so (or the stream ends).
const until = (stream, stop) =>
  new Promise((resolve, reject) => {
    const seen = [];
    stream.on("data", (m) => {
      seen.push(m);
      if (stop(m)) {
        stream.cancel();
        resolve(seen);
      }
    });
    stream.on("end", () => resolve(seen));
    stream.on("error", (e) => (e.code === grpc.status.CANCELLED ? resolve(seen) : reject(e)));
  });

const header = (tournament_id, command_id) => ({ tournament_id, command_id });
// A Decimal as the rules print it: units / 10^scale, exactly ("1.5"); units is a string
// (an int64 read with `longs: String`).
const decimalText = ({ units, scale }) => {
  const negative = units.startsWith("-");
  const digits = (negative ? units.slice(1) : units).padStart(scale + 1, "0");
  const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${text}` : text;
};
const players = [
  ["Carlsen, Magnus", 2830],
  ["Caruana, Fabiano", 2795],
  ["Nakamura, Hikaru", 2802],
  ["Gukesh, D", 2777],
];
const results = ["BOARD_RESULT_WHITE_WINS", "BOARD_RESULT_DRAW", "BOARD_RESULT_BLACK_WINS"];

const created = await call(registration, "CreateTournament", {
  // An empty tournament_id: the server chooses one and answers it.
  header: header("", "create"),
  tournament: {
    name: "Example Open",
    place: "Online",
    federation: "NOR",
    start_date: { year: 2026, month: 12, day: 5 },
    end_date: { year: 2026, month: 12, day: 6 },
    chief_arbiter: { name: "Arbiter, Chief", title: "IA" },
    pairing_system: "PAIRING_SYSTEM_DUTCH",
    rule_set: "dutch-2025",
    rounds: 2,
    initial_color: "COLOR_WHITE",
    rating_kind: "RATING_KIND_STANDARD",
  },
});
const tid = created.tournament_id;
for (const [i, [name, rating]] of players.entries()) {
  await call(registration, "RegisterPlayer", {
    header: header(tid, `register-${i + 1}`),
    player: { name, rating, federation: "NOR" },
  });
}

const pairings = {};
const tournament = { tournament_id: tid };
for (const round of [1, 2]) {
  await call(director, "StartRound", { header: header(tid, `start-${round}`), round });
  // Pushed: every change of the tournament's state, until the proposal is there.
  await until(
    director.WatchTournament({ tournament }, metadata),
    (s) => s.current_round === round && s.phase === "PHASE_PAIRING_PROPOSED",
  );
  await call(director, "PublishPairing", { header: header(tid, `publish-${round}`), round });
  const published = await call(reporting, "GetPairings", { tournament, round });
  pairings[round] = published.boards.map((b) => [b.board.white, b.board.black]);
  for (const b of published.boards) {
    await call(director, "RecordResult", {
      header: header(tid, `result-${round}-${b.board.number}`),
      round,
      board: b.board.number,
      result: results[(b.board.number - 1) % results.length],
    });
  }
  await call(director, "CloseRound", { header: header(tid, `close-${round}`), round });
}

// A refusal a program acts on without reading the text: its code (and, in the
// grpc-status-details-bin trailer, a google.rpc.ErrorInfo with the reason).
let refusal = null;
try {
  await call(director, "CloseRound", { header: header(tid, "close-again"), round: 2 });
} catch (e) {
  refusal = Object.keys(grpc.status).find((k) => grpc.status[k] === e.code);
}

const standings = await call(reporting, "GetStandings", { tournament });
const log = await until(reporting.StreamEvents({ tournament }, metadata), () => false);
console.log(
  JSON.stringify(
    {
      pairings,
      standings: standings.rows.map((r) => [r.place, r.name, decimalText(r.score)]),
      refusal,
      events: log.map((e) => e.payload.kind),
    },
    null,
    1,
  ),
);
