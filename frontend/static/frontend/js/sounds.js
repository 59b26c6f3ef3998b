// Optional sounds (Settings, off by default), synthesized with the Web Audio API: no sound files,
// nothing downloaded. Loaded only once a player with sounds on makes a sound.

/** Each sound: notes of [frequency Hz, start s, length s, waveform, peak gain]. */
const SOUNDS = {
  move: [[330, 0, 0.07, "triangle", 0.22], [220, 0.015, 0.06, "sine", 0.12]],
  refused: [[196, 0, 0.11, "square", 0.06], [147, 0.12, 0.16, "square", 0.06]],
  win: [[523.25, 0, 0.16, "triangle", 0.2], [659.25, 0.12, 0.16, "triangle", 0.2],
    [783.99, 0.24, 0.16, "triangle", 0.2], [1046.5, 0.36, 0.42, "triangle", 0.22]],
};

let audio = null;

/** Play `kind` ("move", "refused", "win") now; quietly nothing where the browser has no audio. */
export function play(kind) {
  const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Context || !SOUNDS[kind]) return;
  audio ??= new Context();
  if (audio.state === "suspended") audio.resume().catch(() => null);
  const now = audio.currentTime;
  for (const [frequency, start, length, type, peak] of SOUNDS[kind]) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = type;
    osc.frequency.value = frequency;
    // A short attack and an exponential fade: a click-free pluck.
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(peak, now + start + 0.008);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
}
