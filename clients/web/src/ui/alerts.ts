// Telling a player what happened while they looked elsewhere: a short sound (synthesised, no file
// to load) and a buzz on phones when the other side moves or the game ends, and the tab's title
// while it is their move. Sound can be switched off; the choice is kept in this browser.
const SOUND_KEY = 'xq.sound';

let audio: AudioContext | null = null;

export function soundOn(): boolean {
  return typeof localStorage === 'undefined' || localStorage.getItem(SOUND_KEY) !== 'off';
}

export function setSoundOn(on: boolean) {
  if (on) localStorage.removeItem(SOUND_KEY);
  else localStorage.setItem(SOUND_KEY, 'off');
}

function tone(freq: number, seconds: number, at = 0) {
  audio ??= new AudioContext();
  const start = audio.currentTime + at;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = 'triangle';
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.25, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + seconds);
  osc.connect(gain).connect(audio.destination);
  osc.start(start);
  osc.stop(start + seconds);
}

// A wooden "tock" for a move, two rising notes for the end of a game, two quick high ones for an
// offer from the opponent (a draw, a takeback: on a phone it may be below the screen).
export function alertPlayer(kind: 'move' | 'end' | 'offer') {
  if (!soundOn()) return;
  const w = window as unknown as { __xqSounds?: string[] };
  (w.__xqSounds ??= []).push(kind); // what was played, for the browser tests
  try {
    if (kind === 'move') tone(660, 0.08);
    else if (kind === 'offer') {
      tone(988, 0.07);
      tone(988, 0.07, 0.12);
    } else {
      tone(523, 0.18);
      tone(784, 0.3, 0.16);
    }
    navigator.vibrate?.(kind === 'move' ? 30 : kind === 'offer' ? [30, 50, 30] : [40, 60, 40]);
  } catch {
    /* no audio device, or audio not allowed yet: the title still tells */
  }
}
