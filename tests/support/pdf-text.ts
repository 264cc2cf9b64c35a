import { objects, toUnicode } from '@tests/api/inventory/pdf';

/**
 * The text drawn on each page, fragment by fragment, each page read with its own fonts. A merged PDF (bulk air
 * waybills) carries several documents that each named their fonts /F1, /F2…: `textLines` (one font map for the
 * whole file) cannot read it, this can.
 */
export function pageTexts(pdf: Buffer): string[][] {
  const all = objects(pdf);
  const latin = pdf.toString('latin1');
  const dictOf = (num: number) => all.get(num)?.dict ?? '';
  const root = Number([...latin.matchAll(/\/Root (\d+) 0 R/g)].at(-1)?.[1]);
  const pagesRoot = Number(/\/Pages (\d+) 0 R/.exec(dictOf(root))?.[1]);
  const kids = [...(/\/Kids \[([^\]]*)\]/.exec(dictOf(pagesRoot))?.[1] ?? '').matchAll(/(\d+) 0 R/g)].map(
    (m) => Number(m[1]),
  );
  return kids.map((page) => {
    const dict = dictOf(page);
    const resourcesRef = /\/Resources (\d+) 0 R/.exec(dict);
    const resources = resourcesRef ? dictOf(Number(resourcesRef[1])) : dict;
    const fonts = new Map<string, Map<number, string>>();
    for (const entry of (/\/Font <<([^>]*)>>/.exec(resources)?.[1] ?? '').matchAll(/\/(\S+) (\d+) 0 R/g)) {
      const font = dictOf(Number(entry[2]));
      const cmap = all.get(Number(/\/ToUnicode (\d+) 0 R/.exec(font)?.[1]))?.stream;
      fonts.set(entry[1]!, cmap ? toUnicode(cmap.toString('latin1')) : new Map());
    }
    const content = all.get(Number(/\/Contents (\d+) 0 R/.exec(dict)?.[1]))?.stream?.toString('latin1') ?? '';
    const texts: string[] = [];
    let font = new Map<number, string>();
    let current: string | null = null;
    for (const line of content.split('\n')) {
      if (line === 'BT') current = '';
      else if (line === 'ET' && current !== null) {
        texts.push(current);
        current = null;
      } else if (line.endsWith(' Tf')) font = fonts.get(line.slice(1).split(' ')[0]!) ?? new Map();
      else if (line.endsWith(' TJ') && current !== null) {
        for (const item of line.matchAll(/<([0-9a-f]*)>/gi)) {
          for (const code of item[1]!.match(/[0-9a-f]{4}/gi) ?? [])
            current += font.get(Number.parseInt(code, 16)) ?? '\ufffd';
        }
      }
    }
    return texts;
  });
}
