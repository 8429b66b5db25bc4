// The smallest bot: it plays the first legal move.  docs/protocol.md.
//     python -m mille.match 'exec:node first_bot.js' bsd
const readline = require("readline");
const lines = readline.createInterface({ input: process.stdin });
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "mille") send({ type: "hello", protocol: 1, name: "first-js" });
  else if (message.type === "decide") send({ type: "move", move: message.legal[0] });
  else if (message.type === "quit") process.exit(0);
});
