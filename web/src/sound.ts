// Sounds made with WebAudio (no audio files): a short wooden click for a seed that falls, a
// high tick for each second of the last ten on the player's own clock.
import { settings } from "./settings.js";

let ctx: AudioContext | null = null;

function audio(): AudioContext | null {
  if (!settings().sound) return null;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === "suspended") void ctx.resume();
    return ctx;
  } catch {
    return null;
  }
}

function tone(freq: number, seconds: number, gain: number, type: OscillatorType): void {
  const a = audio();
  if (!a) return;
  const osc = a.createOscillator(), amp = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, a.currentTime);
  osc.frequency.exponentialRampToValueAtTime(freq * 0.6, a.currentTime + seconds);
  amp.gain.setValueAtTime(gain, a.currentTime);
  amp.gain.exponentialRampToValueAtTime(0.001, a.currentTime + seconds);
  osc.connect(amp).connect(a.destination);
  osc.start();
  osc.stop(a.currentTime + seconds);
}

export const sowClick = () => tone(900 + Math.random() * 200, 0.05, 0.25, "triangle");
export const lowTimeTick = () => tone(1800, 0.04, 0.15, "square");
// Called from a click or key press: browsers start audio only after the player did something.
export const unlockAudio = () => void audio();
