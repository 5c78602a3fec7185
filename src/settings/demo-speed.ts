/**
 * The demo model's pace for live runs (`Demo speed` on the main screen, URL `speed`): kept as a
 * setting in localStorage; a `speed` in the URL overrides it for that page load. A replay keeps its
 * own `Playback speed`: this is how fast the scripted model streams, not how fast a record plays.
 */
import type { Speed } from '../models/config';

export type DemoSpeed = Speed;

/** The paces, slowest first (the order the control offers them). */
export const SPEEDS: readonly DemoSpeed[] = ['slow', 'normal', 'instant'];

export const DEMO_SPEED_KEY = 's04.demoSpeed';

/** The pace a page starts with: the URL's, else the one kept, else normal. */
export function loadDemoSpeed(
  storage: Pick<Storage, 'getItem'> | undefined,
  url: { speed: DemoSpeed; speedGiven: boolean },
): DemoSpeed {
  if (url.speedGiven) return url.speed;
  let kept: string | null = null;
  try {
    kept = storage?.getItem(DEMO_SPEED_KEY) ?? null;
  } catch {
    // storage refused (a privacy mode): the default
  }
  return SPEEDS.find((speed) => speed === kept) ?? 'normal';
}

/** Keeps the pace for the next visits; says whether it could. */
export function saveDemoSpeed(storage: Pick<Storage, 'setItem'> | undefined, speed: DemoSpeed): boolean {
  try {
    storage?.setItem(DEMO_SPEED_KEY, speed);
    return storage !== undefined;
  } catch {
    return false;
  }
}
