import { hash32 } from '../demo-geometry.ts';

/** Seeded generator (mulberry32): the same book, chapter and page always draw the same picture. */
export class Rng {
  private state: number;

  constructor(...seed: number[]) {
    this.state = hash32(...seed) || 1;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  int(min: number, maxInclusive: number): number {
    return Math.floor(this.range(min, maxInclusive + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

export interface Character {
  hair: string;
  clothes: string;
  skin: string;
  longHair: boolean;
  spiky: boolean;
}

export interface Palette {
  hue: number;
  /** The book's recurring characters; the first is the lead. */
  cast: Character[];
  sky: string;
  skyDeep: string;
  accent: string;
  accentSoft: string;
  dark: string;
  cheek: string;
  tone: string;
}

const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(h) % 360},${s}%,${l}%)`;

const SKINS = ['#fde3cf', '#f9d7bd', '#f3c9a8', '#fbe8dc'] as const;

/** One palette per book: a base hue spread by the golden angle so neighbouring ids look different. */
export function paletteFor(book: number): Palette {
  const hue = (book * 137.508 + (hash32(book, 7) % 40)) % 360;
  const h = hash32(book, 11);
  const hairHue = (hue + 180 + (h % 60) - 30) % 360;
  const cast = [0, 1, 2].map((i): Character => {
    const c = hash32(book, 13, i);
    return {
      hair:
        i === 0
          ? h % 4 === 0
            ? '#2a2230'
            : hsl(hairHue, 55, 32)
          : hsl(hairHue + 70 * i + (c % 50), 50, 25 + (c % 40)),
      clothes: i === 0 ? hsl(hue, 78, 52) : hsl(hue + 120 * i, 55, 55),
      skin: SKINS[(h + i) % SKINS.length] ?? '#fde3cf',
      longHair: c % 2 === 0,
      spiky: (c >> 3) % 2 === 0,
    };
  });
  return {
    hue,
    cast,
    sky: hsl(hue, 70, 88),
    skyDeep: hsl(hue + 20, 55, 62),
    accent: hsl(hue, 78, 52),
    accentSoft: hsl(hue, 60, 76),
    dark: hsl(hue, 45, 18),
    cheek: hsl(350, 80, 80),
    tone: hsl(hue, 25, 70),
  };
}

/** Grey palette for the shared placeholders of the scale seed. */
export function neutralPalette(): Palette {
  return {
    hue: 220,
    cast: [
      { hair: '#3b4048', clothes: '#7a8699', skin: '#eef0f3', longHair: false, spiky: false },
      { hair: '#5b6270', clothes: '#9aa3b2', skin: '#f4f5f7', longHair: true, spiky: false },
    ],
    sky: '#e8ebf0',
    skyDeep: '#aab2c0',
    accent: '#7a8699',
    accentSoft: '#c9cfd8',
    dark: '#2b3038',
    cheek: '#d9dde3',
    tone: '#b7bec9',
  };
}
