/**
 * The explorer's icon (`/favicon.ico`): a 16×16 ICO drawn here, a white check mark on the
 * header's navy, so the service ships no binary file.
 */

const SIZE = 16;
const NAVY = [0x3d, 0x21, 0x14, 0xff] as const; // B, G, R, A of #14213d
const WHITE = [0xff, 0xff, 0xff, 0xff] as const;

/** Whether pixel (x, y) (y from the top) belongs to the check mark. */
function onCheck(x: number, y: number): boolean {
  // Two strokes two pixels wide: from (3,8) down to (6,11), then up to (12,4).
  const near = (x0: number, y0: number, x1: number, y1: number): boolean => {
    const dx = x1 - x0;
    const dy = y1 - y0;
    const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)));
    const px = x0 + t * dx - x;
    const py = y0 + t * dy - y;
    return px * px + py * py <= 1.1;
  };
  return near(3, 8, 6, 11) || near(6, 11, 12, 4);
}

/** Whether pixel (x, y) is inside the rounded square (corners cut by one pixel). */
function inside(x: number, y: number): boolean {
  const edge = (v: number) => v === 0 || v === SIZE - 1;
  return !(edge(x) && edge(y));
}

/** The ICO file: one 32-bit image with its (empty) AND mask. */
export function faviconIco(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row++) {
    const y = SIZE - 1 - row; // bitmaps are stored bottom-up
    for (let x = 0; x < SIZE; x++) {
      const colour = !inside(x, y) ? [0, 0, 0, 0] : onCheck(x, y) ? WHITE : NAVY;
      pixels.set(colour, (row * SIZE + x) * 4);
    }
  }
  const mask = Buffer.alloc(SIZE * 4); // 16 rows of 32 bits, all 0: alpha decides
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(SIZE, 4);
  header.writeInt32LE(SIZE * 2, 8); // colour and mask
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([header, pixels, mask]);
  const dir = Buffer.alloc(6 + 16);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2); // icon
  dir.writeUInt16LE(1, 4); // one image
  dir.writeUInt8(SIZE, 6);
  dir.writeUInt8(SIZE, 7);
  dir.writeUInt16LE(1, 10);
  dir.writeUInt16LE(32, 12);
  dir.writeUInt32LE(image.length, 14);
  dir.writeUInt32LE(dir.length, 18);
  return Buffer.concat([dir, image]);
}
