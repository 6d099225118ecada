// `npm run bench:import`: how many pages a second the importer takes in (read, decode whole, hash, store, write the
// chapter rows on PGlite), against a bare sharp loop decoding and resizing the same files to 500 wide in the same run
// (pixels out, no encoding: the least any importer that reads every pixel has to do). Aim: >= 0.7 of it.
// In process (the importer's code through tsx), so the command's start-up (tsx, opening PGlite) is not counted:
// the figure is throughput on a book of hundreds of pages, which is what an operator waits for.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { tsImport } from 'tsx/esm/api';
import {
  envNumber,
  failOnMissedAims,
  fileStamp,
  fmt,
  machine,
  runMain,
  tempDir,
  writeResults,
} from './bench-kit.mjs';

const settings = {
  chapters: envNumber('BENCH_IMPORT_CHAPTERS', 20, 1, 2),
  pagesPerChapter: envNumber('BENCH_IMPORT_PAGES', 20, 1, 5),
  rounds: envNumber('BENCH_IMPORT_ROUNDS', 3, 1, 1),
};

/** JPEG pages of a phone comic's size, with noise so decoding costs what a real scan costs. */
async function makeBook(dir) {
  const page = await sharp({
    create: {
      width: 800,
      height: 1200,
      channels: 3,
      background: '#ddd',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  for (let c = 1; c <= settings.chapters; c++) {
    const chapter = path.join(dir, `第${c}话`);
    mkdirSync(chapter, { recursive: true });
    // The same picture each time, a byte changed in a comment segment: every file differs, decoding costs the same.
    for (let p = 1; p <= settings.pagesPerChapter; p++) {
      writeFileSync(
        path.join(chapter, `${p}.jpg`),
        Buffer.concat([page.subarray(0, 2), Buffer.from([0xff, 0xfe, 0, 6, c, p, 0, 0]), page.subarray(2)]),
      );
    }
  }
}

/** The bare loop: every file read, decoded and resized to 500 wide (raw pixels, nothing encoded), one after another. */
async function bareLoop(dir) {
  const started = performance.now();
  let pages = 0;
  for (const chapter of readdirSync(dir)) {
    for (const file of readdirSync(path.join(dir, chapter))) {
      await sharp(readFileSync(path.join(dir, chapter, file)))
        .resize(500)
        .raw()
        .toBuffer();
      pages++;
    }
  }
  return { pages, seconds: (performance.now() - started) / 1000 };
}

async function importRun(dir, work, round) {
  const { openDatabase } = await tsImport('../apps/server/src/db/client.ts', import.meta.url);
  const importer = await tsImport('../apps/server/src/modules/importer/index.ts', import.meta.url);
  const { createLocalStorage, originalKey } = await tsImport(
    '../apps/server/src/modules/storage/index.ts',
    import.meta.url,
  );
  const dataDir = path.join(work, `data-${round}`);
  const opened = await openDatabase({ kind: 'pglite', dataDir });
  const storage = createLocalStorage({
    originals: path.join(dataDir, 'images'),
    variants: path.join(dataDir, 'image-cache'),
    writesOriginals: true,
  });
  try {
    const started = performance.now();
    const source = await importer.readBookSource(dir);
    const report = await importer.importBook(
      {
        repo: importer.createImporterRepository(opened.db),
        putOriginal: (p, bytes) => storage.put(originalKey(p), bytes),
      },
      source.book,
      {},
    );
    source.close();
    const pages = report.chapters.reduce((n, c) => n + c.pages, 0);
    return { pages, seconds: (performance.now() - started) / 1000 };
  } finally {
    await opened.close();
  }
}

async function main() {
  const work = tempDir('yueman-bench-import-');
  const book = path.join(work, '基准漫画');
  await makeBook(book);
  const total = settings.chapters * settings.pagesPerChapter;
  console.log(
    `bench:import: ${total} JPEG pages (800x1200) in ${settings.chapters} chapters; ${settings.rounds} rounds`,
  );
  const rounds = [];
  for (let round = 1; round <= settings.rounds; round++) {
    // Alternated, so both sides see the same machine.
    const bare = await bareLoop(book);
    const imported = await importRun(book, work, round);
    if (imported.pages !== total) throw new Error(`imported ${imported.pages} pages, expected ${total}`);
    const row = { round, bare: bare.pages / bare.seconds, imported: imported.pages / imported.seconds };
    rounds.push(row);
    console.log(
      `  round ${round}: bare loop ${fmt(row.bare, 1)} pages/s, import ${fmt(row.imported, 1)} pages/s, ratio ${fmt(row.imported / row.bare, 2)}`,
    );
  }
  const ratios = rounds.map((r) => r.imported / r.bare).sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)];
  const met = median >= 0.7;
  const markdown = `# bench:import, ${new Date().toISOString()}\n\n| round | bare loop pages/s | import pages/s | ratio | aim |\n|---|---:|---:|---:|---|\n${rounds
    .map(
      (r) =>
        `| ${r.round} | ${fmt(r.bare, 1)} | ${fmt(r.imported, 1)} | ${fmt(r.imported / r.bare, 2)} | ≥ 0.7 |`,
    )
    .join(
      '\n',
    )}\n\nMedian ratio ${fmt(median, 2)}: ${met ? 'met' : 'below'}. ${total} pages; ${machine().cpus} CPUs, Node ${process.version}.\n`;
  console.log(`median ratio ${fmt(median, 2)} (aim >= 0.7): ${met ? 'met' : 'below'}`);
  writeResults(`import-${fileStamp(new Date())}`, { settings, machine: machine(), rounds, median }, markdown);
  failOnMissedAims(!met, 2);
}

runMain(main, 'the import bench');
