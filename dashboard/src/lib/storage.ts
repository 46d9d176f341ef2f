// Local storage is required (auth persistence); /not_supported is shown when it is unavailable.

export function isLocalStorageAvailable(): boolean {
  try {
    const key = '__reaction_probe__';
    window.localStorage.setItem(key, key);
    const ok = window.localStorage.getItem(key) === key;
    window.localStorage.removeItem(key);
    return ok;
  } catch {
    return false;
  }
}

export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // storage unavailable: the choice just is not remembered
  }
}
