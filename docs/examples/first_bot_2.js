// The smallest bot of protocol 2, for any table: the first legal move (asked a coup fourré out of turn,
// it makes it).  docs/protocol.md, "Protocols 1 and 2".
//     python -m mille.match --players 4 'exec:node first_bot_2.js' bsd
const readline = require("readline");
const lines = readline.createInterface({ input: process.stdin });
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "mille") send({ type: "hello", protocol: 2, name: "first-2-js" });
  else if (message.type === "decide") send({ type: "move", move: message.legal[0] });
  else if (message.type === "quit") process.exit(0);
});
