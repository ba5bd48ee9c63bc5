import { Router } from 'express';

import type { Folder } from '../../src/organizing/folder.entity';
import type { OwnedNamed, OwnedNamesService } from '../../src/organizing/owned-names.service';
import type { PaymentMode } from '../../src/organizing/payment-mode.entity';
import type { Tag } from '../../src/organizing/tag.entity';
import { AppError } from '../../src/platform/errors';
import { definedOnly } from '../../src/platform/objects';
import { toIsoMicros } from '../../src/platform/wire-formats';
import type { Services } from '../../src/runtime/services';
import { callerOf } from '../auth';
import { parseBody } from '../body';
import { FormReader } from '../form';
import { pathId, readPagedQuery } from './params';

type Timestamped = OwnedNamed & { createdAt: string; updatedAt?: string | null };

/** How one of the original's owned resources reads from a form and shows on the wire. */
interface OwnedResource<E extends Timestamped, F extends string> {
  path: string;
  label: string;
  /** The original's sortable columns and the entity properties they order by. */
  sort: Record<F, string>;
  read(form: FormReader): Partial<E>;
  present(row: E): Record<string, unknown>;
}

const timestamps = (row: Timestamped) => ({
  created_at: toIsoMicros(row.createdAt),
  updated_at: toIsoMicros(row.updatedAt ?? row.createdAt),
});

const FOLDERS: OwnedResource<Folder, 'id' | 'name' | 'is_default' | 'created_at'> = {
  path: '/folders',
  label: 'Folder',
  sort: { id: 'id', name: 'name', is_default: 'isDefault', created_at: 'createdAt' },
  read: (form) => ({ color: form.text('color'), isDefault: form.integer('is_default') }),
  present: (folder) => ({
    id: folder.id,
    user_id: folder.user,
    name: folder.name,
    color: folder.color ?? null,
    is_default: folder.isDefault,
    ...timestamps(folder),
  }),
};

const TAGS: OwnedResource<Tag, 'id' | 'name' | 'created_at' | 'updated_at'> = {
  path: '/tags',
  label: 'Tag',
  sort: { id: 'id', name: 'name', created_at: 'createdAt', updated_at: 'updatedAt' },
  read: () => ({}),
  present: (tag) => ({ id: tag.id, user_id: tag.user, name: tag.name, ...timestamps(tag) }),
};

const PAYMENT_METHODS: OwnedResource<
  PaymentMode,
  'id' | 'name' | 'description' | 'expiry' | 'created_at' | 'updated_at'
> = {
  path: '/payments/methods',
  label: 'Payment method',
  sort: {
    id: 'id',
    name: 'name',
    description: 'description',
    expiry: 'expiry',
    created_at: 'createdAt',
    updated_at: 'updatedAt',
  },
  read: (form) => ({
    paymentType: form.text('payment_type'),
    description: form.text('description'),
    expiry: form.text('expiry'),
  }),
  present: (method) => ({
    id: method.id,
    user_id: method.user,
    name: method.name,
    payment_type: method.paymentType ?? null,
    description: method.description ?? null,
    expiry: method.expiry ?? null,
    ...timestamps(method),
  }),
};

/**
 * The original's folder, tag and payment-method routes (beyond the spec; REST clients get the ids they send
 * on create from them), over the same services as GraphQL: list (an empty one is a 400, as the spec's lists),
 * create (201 with the row, as the original), read, update (PUT or PATCH, 200 with the row), delete (204).
 */
export function organizingRoutes(services: Services): Router {
  const router = Router();
  mount(router, services.folders, FOLDERS);
  mount(router, services.tags, TAGS);
  mount(router, services.paymentModes, PAYMENT_METHODS);
  return router;
}

/** The paths, labels and sortable fields of the three resources (the API document describes them from here). */
export const OWNED_RESOURCES = { folders: FOLDERS, tags: TAGS, methods: PAYMENT_METHODS } as const;

function mount<E extends Timestamped, F extends string>(
  router: Router,
  service: OwnedNamesService<E>,
  resource: OwnedResource<E, F>,
): void {
  const { path, label } = resource;
  router.get(path, async (req, res) => {
    const form = new FormReader(req.query);
    const query = readPagedQuery(form, Object.keys(resource.sort) as F[], [{ field: 'id' as F, direction: 'asc' }]);
    form.done();
    const rows = await service.page(callerOf(req), { ...query, properties: resource.sort });
    if (rows.length === 0) throw AppError.noResults(`${label.toLowerCase()}s`);
    res.json(rows.map((row) => resource.present(row)));
  });

  router.post(path, parseBody, async (req, res) => {
    const form = new FormReader(req.body);
    const fields = { name: form.text('name', { required: true }) ?? '', ...definedOnly(resource.read(form)) };
    form.done();
    res
      .status(201)
      .json(resource.present(await service.create(callerOf(req), fields as { name: string } & Partial<E>)));
  });

  router.get(`${path}/:id`, async (req, res) => {
    res.json(resource.present(await service.get(callerOf(req), pathId(req, label))));
  });

  router.put(`${path}/:id`, parseBody, async (req, res) => {
    const id = pathId(req, label);
    const form = new FormReader(req.body);
    const fields = definedOnly({ name: form.text('name'), ...resource.read(form) });
    form.done();
    res.json(resource.present(await service.update(callerOf(req), id, fields as Partial<E>)));
  });

  router.delete(`${path}/:id`, async (req, res) => {
    await service.remove(callerOf(req), pathId(req, label));
    res.status(204).end();
  });
}
