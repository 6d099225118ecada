import { JUMP_TYPES, type JumpType, MAX_ADS } from '@yueman/contract/admin';
import { badRequest } from '../../shared/errors.ts';
import type { AdRow, AdsConsoleRepository } from './ads.console.repository.ts';
import type { ConsoleDeps, Editor } from './books.console.service.ts';
import { adNotFound } from './catalog.errors.ts';
import { readUploadedImage } from './uploaded-image.ts';

export { JUMP_TYPES, type JumpType, MAX_ADS };

export interface AdsConsoleDeps extends Pick<ConsoleDeps, 'audit' | 'changed'> {
  repo: AdsConsoleRepository;
  putOriginal(imagePath: string, bytes: Buffer): Promise<unknown>;
}

/** What an operator sets of an ad (all of it when adding, any part when editing). */
export interface AdFields {
  jumpType: JumpType;
  bizId: number | null;
  url: string;
  active: boolean;
  startsAt: string | null;
  endsAt: string | null;
}

export const adView = (a: AdRow) => ({
  id: a.id,
  jumpType: a.jumpType as JumpType,
  bizId: a.bizId,
  url: a.url,
  imgPath: a.imgPath,
  sort: a.sort,
  active: a.active,
  startsAt: a.startsAt?.toISOString() ?? null,
  endsAt: a.endsAt?.toISOString() ?? null,
});
export type AdView = ReturnType<typeof adView>;

const LINK = /^(https?:\/\/[^\s]+|\/[^\s]*)$/;

/** An ad's fields from the upload form's text fields (the same rules as the JSON edit's schema). */
export function adFieldsOf(fields: Record<string, string>): AdFields {
  const jumpType = Number(fields.jumpType);
  if (!(JUMP_TYPES as readonly number[]).includes(jumpType))
    throw badRequest('表单字段 jumpType 不正确', 'jumpType');
  const bizId = fields.bizId?.trim() ? Number(fields.bizId) : null;
  if (bizId !== null && !(Number.isInteger(bizId) && bizId >= 1 && bizId <= 2_147_483_647))
    throw badRequest('表单字段 bizId 不正确', 'bizId');
  const when = (name: 'startsAt' | 'endsAt') => {
    const raw = fields[name]?.trim();
    if (!raw) return null;
    if (Number.isNaN(Date.parse(raw)) || !/^\d{4}-\d{2}-\d{2}T/.test(raw))
      throw badRequest(`表单字段 ${name} 不正确`, name);
    return raw;
  };
  const url = fields.url?.trim() ?? '';
  if (url.length > 500) throw badRequest('表单字段 url 不正确', 'url');
  return {
    jumpType: jumpType as AdFields['jumpType'],
    bizId,
    url,
    active: fields.active === undefined ? true : ['true', 'on', '1'].includes(fields.active.toLowerCase()),
    startsAt: when('startsAt'),
    endsAt: when('endsAt'),
  };
}

type Q = Parameters<AdsConsoleRepository['count']>[0];

/** An ad that can be shown: its target fits its jump, its window runs forwards. 400 naming the field otherwise. */
async function checkAd(deps: AdsConsoleDeps, ad: AdFields, q?: Q) {
  if (ad.jumpType === 2) {
    if (!ad.bizId) throw badRequest('请填写要打开的书籍编号', 'bizId');
    if (!(await deps.repo.bookExists(ad.bizId, q))) throw badRequest('这本书不存在', 'bizId');
  }
  if ((ad.jumpType === -1 || ad.jumpType === -2) && !LINK.test(ad.url))
    throw badRequest('请填写以 http(s):// 或 / 开头的链接', 'url');
  if (ad.startsAt && ad.endsAt && Date.parse(ad.startsAt) >= Date.parse(ad.endsAt))
    throw badRequest('结束时间须晚于开始时间', 'endsAt');
}

const stored = (ad: AdFields) => ({
  jumpType: ad.jumpType,
  bizId: ad.jumpType === 2 ? ad.bizId : null,
  url: ad.jumpType === -1 || ad.jumpType === -2 ? ad.url : '',
  active: ad.active,
  startsAt: ad.startsAt ? new Date(ad.startsAt) : null,
  endsAt: ad.endsAt ? new Date(ad.endsAt) : null,
});

async function lockAd(deps: AdsConsoleDeps, q: Q, id: number) {
  const row = await deps.repo.lock(q, id);
  if (!row) throw adNotFound();
  return row;
}

// The home page's ad carousel as operators keep it: pictures uploaded (kept as originals under ads/uploads/),
// where each ad leads, its order, whether it shows and when. Readers see the active ones inside their window.

export const listAds = async (deps: AdsConsoleDeps) => ({ ads: (await deps.repo.all()).map(adView) });

/** A new ad from the upload form: its text fields, then its picture, each refused naming its field. */
export async function addAd(
  deps: AdsConsoleDeps,
  input: { upload: { file: Buffer; fields: Record<string, string> }; editor: Editor },
) {
  const fields = adFieldsOf(input.upload.fields);
  const image = await readUploadedImage(input.upload.file, 'image');
  await checkAd(deps, fields);
  const imgPath = `ads/uploads/${image.hash}.${image.ext}`;
  await deps.putOriginal(imgPath, image.bytes);
  const saved = await deps.repo.transaction(async (tx) => {
    if ((await deps.repo.count(tx)) >= MAX_ADS) throw badRequest(`最多 ${MAX_ADS} 个广告`, 'image');
    await deps.repo.addImage(tx, { path: imgPath, width: image.width, height: image.height });
    const ad = adView(await deps.repo.insert(tx, { ...stored(fields), imgPath }));
    await deps.audit(tx, {
      ...input.editor,
      action: 'ad.add',
      target: `ad:${ad.id}`,
      before: null,
      after: ad,
    });
    return ad;
  });
  deps.changed();
  return { ad: saved };
}

export async function editAd(
  deps: AdsConsoleDeps,
  input: { id: number; changes: Partial<AdFields>; editor: Editor },
) {
  const saved = await deps.repo.transaction(async (tx) => {
    const before = adView(await lockAd(deps, tx, input.id));
    const merged = { ...before, ...input.changes };
    await checkAd(deps, merged, tx);
    const after = adView(await deps.repo.update(tx, input.id, stored(merged)));
    await deps.audit(tx, { ...input.editor, action: 'ad.edit', target: `ad:${input.id}`, before, after });
    return after;
  });
  deps.changed();
  return { ad: saved };
}

export async function removeAd(deps: AdsConsoleDeps, input: { id: number; editor: Editor }) {
  await deps.repo.transaction(async (tx) => {
    const before = adView(await lockAd(deps, tx, input.id));
    await deps.repo.remove(tx, input.id);
    await deps.audit(tx, {
      ...input.editor,
      action: 'ad.delete',
      target: `ad:${input.id}`,
      before,
      after: null,
    });
  });
  deps.changed();
}

/** The carousel's order: `ids` must be every ad once, first shown first. */
export async function arrangeAds(deps: AdsConsoleDeps, input: { ids: number[]; editor: Editor }) {
  const saved = await deps.repo.transaction(async (tx) => {
    await deps.repo.lockOrder(tx);
    const before = (await deps.repo.all(tx)).map((a) => a.id);
    const same =
      before.length === input.ids.length && new Set([...before, ...input.ids]).size === before.length;
    if (!same) throw badRequest('请给出全部广告，每个一次', 'ids');
    for (const [i, id] of input.ids.entries()) await deps.repo.setSort(tx, id, i + 1);
    const after = await deps.repo.all(tx);
    await deps.audit(tx, {
      ...input.editor,
      action: 'ad.order',
      target: 'ads',
      before,
      after: after.map((a) => a.id),
    });
    return after.map(adView);
  });
  deps.changed();
  return { ads: saved };
}
