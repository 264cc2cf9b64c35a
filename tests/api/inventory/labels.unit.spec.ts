import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  fitCount,
  LABEL_FONTS,
  LabelLayoutError,
  type LabelOptions,
  mmToPt,
  pageCount,
  pageLayout,
  renderLabels,
  scriptRuns,
} from '@commands/printing/labels';
import { describe, expect, it } from 'vitest';
import {
  contentStreams,
  fontNames,
  fonts,
  imageCount,
  isPdf,
  mediaBoxes,
  pageCount as pdfPages,
  textBoxes,
  textLines,
} from './pdf';

const base: LabelOptions = {
  paper: 'a4',
  widthMm: 50,
  heightMm: 30,
  orientation: 'portrait',
  symbology: 'code128',
  showName: true,
  showPrice: true,
};
const item = { code: 'KOPI-001', name: 'Kopi O', price: 'MYR 12.50', copies: 1 };
const pt = (mm: number) => expect.closeTo(mmToPt(mm), 6);

describe('label layout', () => {
  it('counts how many labels fit across a space, gaps between them', () => {
    expect(fitCount(200, 50, 2)).toBe(3); // 3 × 50 + 2 × 2 = 154; a fourth needs 208
    expect(fitCount(200, 99, 2)).toBe(2); // exactly 200
    expect(fitCount(200, 100, 2)).toBe(1); // 202 is too much
    expect(fitCount(40, 50, 2)).toBe(0);
  });

  it('lays an A4 sheet out in a centred grid, more per sheet in landscape for wide labels', () => {
    const portrait = pageLayout(base);
    expect(portrait).toMatchObject({ columns: 3, rows: 9, capacity: 27, perPage: 27, turned: false });
    expect(portrait.pageWidth).toEqual(pt(210));
    expect(portrait.pageHeight).toEqual(pt(297));
    // 3 labels and 2 gaps are 154 mm of 210: 28 mm each side; 9 rows and 8 gaps are 286 mm of 297.
    expect(portrait.originX).toEqual(pt(28));
    expect(portrait.originY).toEqual(pt(5.5));
    expect(portrait.pitchX).toEqual(pt(52));
    expect(portrait.pitchY).toEqual(pt(32));

    const landscape = pageLayout({ ...base, orientation: 'landscape' });
    expect(landscape).toMatchObject({ columns: 5, rows: 6, capacity: 30 });
    expect(landscape.pageWidth).toEqual(pt(297));
    expect(landscape.pageHeight).toEqual(pt(210));
  });

  it('lays Letter out the same way', () => {
    const letter = pageLayout({ ...base, paper: 'letter' });
    expect(letter).toMatchObject({ columns: 3, rows: 8, capacity: 24 });
    expect(letter.pageWidth).toBeCloseTo(612, 6);
    expect(letter.pageHeight).toBeCloseTo(792, 6);
    expect(pageLayout({ ...base, paper: 'letter', widthMm: 20, heightMm: 10 })).toMatchObject({
      columns: 9,
      rows: 22,
      capacity: 198,
    });
    expect(pageLayout({ ...base, widthMm: 150, heightMm: 150 }).capacity).toBe(1);
  });

  it('puts the asked number per sheet, and refuses more than the sheet holds', () => {
    const ten = pageLayout({ ...base, perSheet: 10 });
    expect(ten).toMatchObject({ capacity: 27, perPage: 10 });
    expect(pageCount(ten, 25)).toBe(3);
    expect(pageCount(pageLayout(base), 27)).toBe(1);
    expect(pageCount(pageLayout(base), 28)).toBe(2);

    expect(pageLayout({ ...base, perSheet: 27 }).perPage).toBe(27);
    const refused = (() => {
      try {
        pageLayout({ ...base, perSheet: 28 });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(LabelLayoutError);
    expect(refused).toMatchObject({ problem: 'does_not_fit', details: { per_sheet: 28, capacity: 27 } });
    // The same 28 fit on a landscape sheet.
    expect(pageLayout({ ...base, orientation: 'landscape', perSheet: 28 }).perPage).toBe(28);
  });

  it('makes each label a page of its own size on a continuous roll, turned in landscape', () => {
    const roll = pageLayout({ ...base, paper: 'continuous', perSheet: 99 });
    expect(roll).toMatchObject({ capacity: 1, perPage: 1, turned: false });
    expect(roll.pageWidth).toEqual(pt(50));
    expect(roll.pageHeight).toEqual(pt(30));
    const turned = pageLayout({ ...base, paper: 'continuous', orientation: 'landscape' });
    expect(turned).toMatchObject({ perPage: 1, turned: true });
    expect(turned.pageWidth).toEqual(pt(30));
    expect(turned.pageHeight).toEqual(pt(50));
    expect(turned.labelWidth).toEqual(pt(50));
  });
});

describe('label PDFs', () => {
  it('draws each label with its name, code and price under the barcode, on as many pages as the layout says', async () => {
    const pdf = await renderLabels({ ...base, perSheet: 4 }, [
      { ...item, copies: 6 },
      { code: 'TEH-2', name: 'Teh Tarik', price: null, copies: 3 },
    ]);
    expect(isPdf(pdf)).toBe(true);
    expect(pdfPages(pdf)).toBe(3);
    const lines = textLines(pdf);
    expect(lines.filter((line) => line === 'KOPI-001')).toHaveLength(6);
    expect(lines.filter((line) => line === 'MYR 12.50')).toHaveLength(6);
    expect(lines.filter((line) => line === 'TEH-2')).toHaveLength(3);
    expect(lines.filter((line) => line === 'Teh Tarik')).toHaveLength(3);
    expect(lines.slice(0, 3)).toEqual(['Kopi O', 'KOPI-001', 'MYR 12.50']);
  });

  it('embeds one image per code, however many labels show it', async () => {
    const one = imageCount(await renderLabels(base, [{ ...item, copies: 1 }]));
    expect(one).toBeGreaterThan(0);
    expect(imageCount(await renderLabels(base, [{ ...item, copies: 40 }]))).toBe(one);
    const two = imageCount(
      await renderLabels(base, [item, { code: 'TEH-2', name: 'Teh', price: null, copies: 1 }]),
    );
    expect(two).toBe(2 * one);
  });

  it('leaves out what is switched off', async () => {
    const lines = textLines(await renderLabels({ ...base, showName: false, showPrice: false }, [item]));
    expect(lines).toEqual(['KOPI-001']);
  });

  it('cuts a long name to the label width', async () => {
    const long = 'Kopi O Kosong premium roast blend, 500 g resealable bag with valve';
    const lines = textLines(await renderLabels(base, [{ ...item, name: long }]));
    expect(lines[0]).toMatch(/^Kopi O Kosong .+…$/);
    expect(lines[0]!.length).toBeLessThan(long.length);
  });

  it('keeps the code, then the price, when a short label has no room for every line', async () => {
    const tiny = textLines(await renderLabels({ ...base, widthMm: 20, heightMm: 10 }, [item]));
    expect(tiny).toEqual(['KOPI-001']);
    const small = textLines(await renderLabels({ ...base, widthMm: 40, heightMm: 12 }, [item]));
    expect(small).toEqual(['KOPI-001', 'MYR 12.50']);
  });

  it('draws QR codes, beside the text on a wide label, and any text in them', async () => {
    const pdf = await renderLabels({ ...base, symbology: 'qrcode', widthMm: 60, heightMm: 25 }, [
      { ...item, code: '椰浆饭-1' },
    ]);
    expect(imageCount(pdf)).toBeGreaterThan(0);
    expect(textLines(pdf)).toEqual(['Kopi O', '椰浆饭-1', 'MYR 12.50']);
  });

  it('turns the label on a landscape roll page', async () => {
    const pdf = await renderLabels({ ...base, paper: 'continuous', orientation: 'landscape' }, [
      { ...item, copies: 2 },
    ]);
    expect(pdfPages(pdf)).toBe(2);
    expect(mediaBoxes(pdf)).toEqual([
      { width: expect.closeTo(mmToPt(30), 4), height: expect.closeTo(mmToPt(50), 4) },
      { width: expect.closeTo(mmToPt(30), 4), height: expect.closeTo(mmToPt(50), 4) },
    ]);
    // A quarter turn: the matrix [0 1 -1 0] after moving the origin to the page's right edge.
    expect(contentStreams(pdf)[0]).toMatch(/0 1 -1 0 0 0 cm/);
  });

  it('refuses a code Code 128 cannot carry, and an empty print', async () => {
    await expect(renderLabels(base, [{ ...item, code: 'CAFÉ' }])).rejects.toMatchObject({
      problem: 'not_encodable',
    });
    await expect(renderLabels(base, [])).rejects.toBeInstanceOf(RangeError);
  });
});

describe('label text in any script', () => {
  const chinese = '无线耳机';
  const thai = 'หูฟังไร้สาย';
  const vietnamese = 'Tai nghe không dây';
  const malay = 'Fon kepala tanpa wayar';
  const names = [chinese, thai, vietnamese, malay];
  const labels = names.map((name, index) => ({
    code: `EAR-${index + 1}`,
    name,
    price: 'MYR 99.00',
    copies: 1,
  }));
  /** The label's blank border in points for `base` (50 × 30 mm): 1.5 mm. */
  const pad = mmToPt(1.5);
  const clusterEnds = (text: string) =>
    new Set([...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)].map((s) => s.index));

  it('splits text into runs of one font: Thai, CJK (with kana and fullwidth forms), everything else', () => {
    expect(scriptRuns('Tai nghe 无线耳机（黑）หูฟัง ワイヤレス 2')).toEqual([
      { script: 'latin', text: 'Tai nghe ' },
      { script: 'cjk', text: '无线耳机（黑）' },
      { script: 'thai', text: 'หูฟัง' },
      { script: 'latin', text: ' ' },
      { script: 'cjk', text: 'ワイヤレス' },
      { script: 'latin', text: ' 2' },
    ]);
    // A combining accent stays with the letter it is written on, whatever its own block.
    expect(scriptRuns('耳\u0301x')).toEqual([
      { script: 'cjk', text: '耳\u0301' },
      { script: 'latin', text: 'x' },
    ]);
  });

  it('writes Chinese, Thai, Vietnamese and Malay names in fonts that have them, readable back from the PDF', async () => {
    const pdf = await renderLabels(base, labels);
    // Every line comes back character for character through the fonts' ToUnicode maps: nothing became "?".
    expect(textLines(pdf)).toEqual(labels.flatMap((label) => [label.name, label.code, 'MYR 99.00']));
    expect(fontNames(pdf)).toEqual(['NotoSans-Regular', 'NotoSansSC-Regular', 'NotoSansThai-Regular']);
    for (const font of fonts(pdf).values()) expect(font.embedded, font.name).toBe(true);
    expect(pdf.toString('latin1')).not.toMatch(/\/BaseFont \/Helvetica/);
    // Each name is drawn in its own script's font.
    const nameFonts = textBoxes(pdf)
      .filter((line) => names.includes(line.text))
      .map((line) => [line.text, line.fonts]);
    expect(nameFonts).toEqual([
      [chinese, ['NotoSansSC-Regular']],
      [thai, ['NotoSansThai-Regular']],
      [vietnamese, ['NotoSans-Regular']],
      [malay, ['NotoSans-Regular']],
    ]);
  });

  it('switches fonts within a line, keeping the runs in order on one baseline', async () => {
    const name = 'Kopi 咖啡 กาแฟ đá';
    const pdf = await renderLabels({ ...base, showPrice: false }, [{ ...item, name }]);
    const [line] = textBoxes(pdf);
    expect(line!.text).toBe(name);
    expect(line!.fragments.map((f) => [f.text, f.font])).toEqual([
      ['Kopi ', 'NotoSans-Regular'],
      ['咖啡', 'NotoSansSC-Regular'],
      [' ', 'NotoSans-Regular'],
      ['กาแฟ', 'NotoSansThai-Regular'],
      [' đá', 'NotoSans-Regular'],
    ]);
    // Each run starts where the one before ends (measured from the embedded fonts' own widths), centred on the label.
    line!.fragments.slice(1).forEach((fragment, index) => {
      expect(fragment.x).toBeCloseTo(line!.fragments[index]!.right, 2);
    });
    expect(line!.x - pad).toBeCloseTo(mmToPt(50) - pad - line!.right, 2);
  });

  it('prints decomposed accents composed, as one character of the font', async () => {
    const pdf = await renderLabels(base, [{ ...item, name: 'Tai nghe kho\u0302ng da\u0302y' }]);
    expect(textLines(pdf)[0]).toBe('Tai nghe không dây');
  });

  it('cuts long names in any script with "…" so they fit the label, never inside a character', async () => {
    const long = [
      '无线蓝牙降噪耳机，超长续航，支持快速充电和多设备连接',
      'หูฟังไร้สายตัดเสียงรบกวน แบตเตอรี่ใช้งานได้นานมาก',
      'Tai nghe không dây chống ồn, pin dùng rất lâu, sạc nhanh',
      'Kopi 咖啡 กาแฟ Tai nghe không dây 无线蓝牙降噪耳机 หูฟังไร้สาย',
    ];
    const pdf = await renderLabels(
      base,
      long.map((name, index) => ({ code: `L-${index}`, name, price: null, copies: 1 })),
    );
    const lines = textBoxes(pdf).filter((line) => !line.text.startsWith('L-'));
    expect(lines).toHaveLength(long.length);
    lines.forEach((line, index) => {
      const name = long[index]!;
      expect(line.text, name).toMatch(/…$/);
      const kept = line.text.slice(0, -1);
      expect(name.startsWith(kept), line.text).toBe(true);
      expect(clusterEnds(name).has(kept.length) || kept.length === name.length, line.text).toBe(true);
      expect(kept.length, line.text).toBeGreaterThan(4);
      // Inside the label's border: the widths are the fonts' own, as embedded in the PDF.
      expect(line.x, line.text).toBeGreaterThanOrEqual(pad - 0.01);
      expect(line.right, line.text).toBeLessThanOrEqual(mmToPt(50) - pad + 0.01);
    });
    // The Thai line keeps its marks: a cut never strands a vowel or tone mark from its consonant.
    expect(lines[1]!.text).toMatch(/^หูฟังไร้สาย/);
  });

  it('embeds only the glyphs used: a Chinese label is a few kilobytes, not the 10 MB font', async () => {
    const require = createRequire(import.meta.url);
    const { pkg, file } = LABEL_FONTS.cjk;
    const fontSize = readFileSync(
      path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file),
    ).length;
    expect(fontSize).toBeGreaterThan(5_000_000);
    const pdf = await renderLabels(base, [{ ...item, name: chinese }]);
    expect(textLines(pdf)[0]).toBe(chinese);
    expect(pdf.length).toBeLessThan(20_000);
  });
});
