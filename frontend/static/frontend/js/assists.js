// Solver assists at the table: a hint shown on the board and "can I still win?". Both read the
// face-down cards on the server, so the first use asks the player to accept an assisted game.
import { get, post } from "./api.js";
import { cardName } from "./cards.js";
import { h } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

/** The sentence for a solver answer (`question` "hint" or "winnability"); unknown said plainly,
 * and a hint that is only the search's best guess (`proven: false`) says so. */
export function describeAnswer(answer, question) {
  if (answer.status === "unknown" && !(question === "hint" && answer.move)) {
    return question === "hint"
      ? gettext("No hint: the solver ran out of time, so it is unknown whether this game can still be won.")
      : gettext("Unknown: the solver ran out of time before it could tell whether this game can still be won.");
  }
  if (answer.status === "no-longer-winnable") {
    return question === "hint"
      ? gettext("No hint: this game can no longer be won.")
      : gettext("No: this game can no longer be won.");
  }
  if (question === "hint" && answer.move) {
    const [card, to] = answer.move.split(">");
    const hint = to === "F"
      ? interpolate(gettext("Hint: move %(card)s to its foundation."), { card: cardName(card) }, true)
      : interpolate(gettext("Hint: move %(card)s to column %(column)s."), { card: cardName(card), column: to }, true);
    return answer.proven === false
      ? `${hint} ${gettext("This is the solver's best guess: it has not yet proven a win from here and keeps searching.")}`
      : hint;
  }
  return gettext("Yes: this game can still be won.");
}

// A queued solve (202 `pending`) is answered by a push on the game's feed (with Redis) or,
// failing that, by asking again: once solved, the server answers from the kept line.
const ASK_AGAIN_MS = 1500;
const ASK_AGAIN_TIMES = 20;
const waiting = new Map();
// Where an answer nobody waits for goes: a proof that replaces a best guess (set per board).
let improved = () => {};

/** A `hint` or `winnability` push from the game's feed (table.js hands them here). */
export function assistAnswered(question, answer) {
  if (waiting.has(question)) waiting.get(question)(answer);
  else improved(question, answer);
}

function answerOf(path, question, version) {
  return new Promise((resolve, reject) => {
    let timer = 0;
    const settle = (finish) => { clearTimeout(timer); waiting.delete(question); finish(); };
    waiting.set(question, (answer) => { if (answer.version === version) settle(() => resolve(answer)); });
    const askAgain = async (left) => {
      try {
        const answer = await post(path);
        if (answer.status !== "pending") return settle(() => resolve(answer));
      } catch (error) {
        return settle(() => reject(error));
      }
      if (left > 0) timer = setTimeout(() => askAgain(left - 1), ASK_AGAIN_MS);
      else settle(() => reject(new Error(gettext("The solver is busy: please ask again in a moment."))));
    };
    timer = setTimeout(() => askAgain(ASK_AGAIN_TIMES), ASK_AGAIN_MS);
  });
}

/** A modal question before the game becomes assisted; resolves true when accepted. */
function confirmAssisted() {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "dialog assist-confirm", "aria-labelledby": "assist-title" },
      h("form", { method: "dialog" },
        h("h2", { id: "assist-title" }, gettext("Ask the solver?")),
        h("p", {}, gettext("The solver reads the face-down cards, so this game becomes assisted: it is ranked apart from games played without help, for good.")),
        h("div", { class: "actions" },
          h("button", { type: "submit", value: "", class: "secondary" }, gettext("Cancel")),
          h("button", { type: "submit", value: "ask", class: "primary" }, gettext("Ask the solver")))));
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "ask");
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

/**
 * The Hint and "Can I still win?" buttons for the owner's board (`boardOf()`: made later).
 * `help`: the server's word on whether it would help on this game (the state's `help`).
 */
export function assistButtons(ctx, boardOf, help) {
  let accepted = false;
  let offer = help;
  /** Help the server refuses here: the buttons say so, and a press tells why, asking nothing. */
  const markOffer = () => {
    for (const button of buttons) {
      button.setAttribute("aria-disabled", String(offer?.available === false));
      button.title = offer?.available === false ? offer.message : "";
    }
  };
  /** Whether help may be asked now; the server is asked again first (an attempt may be over). */
  const offered = async (gameId) => {
    if (offer?.available !== false) return true;
    offer = (await get(`/games/${gameId}`).catch(() => null))?.help ?? offer;
    markOffer();
    if (offer.available) return true;
    ctx.notify(offer.message, "info", offer.refusal, "", { scope: "board" });
    return false;
  };
  const show = (question, answer) => {
    const board = boardOf();
    // About this table: the message goes when the table changes (a move, the win).
    ctx.notify(describeAnswer(answer, question), "info", `${question}-${answer.status}`, "", { scope: "board" });
    if (question === "hint" && answer.move && answer.version === board.version()) board.showHint(answer.move);
  };
  improved = (question, answer) => {
    if (answer.version === boardOf()?.version()) show(question, answer);
  };
  const ask = async (question) => {
    const board = boardOf();
    const state = board.state;
    if (!board.playable() || !(await offered(state.id))) return;
    if (!state.assisted && !accepted && !(await confirmAssisted())) return;
    accepted = true;
    buttons.forEach((button) => { button.disabled = true; });
    try {
      const path = `/games/${state.id}/${question}`;
      let answer = await post(path);
      if (answer.status === "pending") {
        ctx.notify(gettext("The solver is thinking…"), "info", `${question}-pending`, "", { scope: "board" });
        answer = await answerOf(path, question, answer.version);
      }
      show(question, answer);
    } catch (error) {
      ctx.notify(error.message, "error", error.code);
    } finally {
      buttons.forEach((button) => { button.disabled = !board.playable(); });
    }
  };
  const buttons = [
    h("button", { type: "button", "data-assist": "hint", "aria-label": gettext("Hint: the next move of a winning line (the game becomes assisted)"), onclick: () => ask("hint") }, gettext("Hint")),
    h("button", { type: "button", "data-assist": "winnability", onclick: () => ask("winnability") }, gettext("Can I still win?")),
  ];
  markOffer();
  return buttons;
}
