import { type RequestHandler, Router } from 'express';

import { CATEGORY_SORT_FIELDS, MAX_SEARCH_RESULTS } from '../../src/catalogue/catalogue.service';
import type { Config } from '../../src/platform/config';
import { AppError } from '../../src/platform/errors';
import type { Services } from '../../src/runtime/services';
import { callerOf } from '../auth';
import { FormReader } from '../form';
import { presentCategory, presentProduct, presentProductDetail } from '../presenters/catalogue.presenter';
import { listPaging, pathId, readPagedQuery } from './params';

/** Operations 19-22. */
export function catalogueRoutes(services: Services, config: Pick<Config, 'baseUrl'>): Router {
  const router = Router();
  const catalogue = services.catalogue;
  const defaultImage = `${config.baseUrl}/static/default-product.svg`;

  // Search by name; an empty (or absent) q pages through the catalogue, as the original's search and list do.
  const searchOrBrowse: RequestHandler = async (req, res) => {
    const form = new FormReader(req.query);
    const q = form.text('q', { max: 200 })?.trim();
    const { start, length } = listPaging(form, 10, MAX_SEARCH_RESULTS);
    form.done();
    const products = q
      ? await catalogue.search(callerOf(req), q, { offset: start, limit: length })
      : await catalogue.browse(callerOf(req), { offset: start, limit: length });
    if (products.length === 0) throw AppError.noResults('products');
    res.json(products.map((product) => presentProduct(product, defaultImage)));
  };
  router.get('/products/search', searchOrBrowse);
  router.get('/products', searchOrBrowse);

  router.get('/products/categories', async (req, res) => {
    const form = new FormReader(req.query);
    const query = readPagedQuery(form, CATEGORY_SORT_FIELDS, [{ field: 'id', direction: 'asc' }]);
    form.done();
    const categories = await catalogue.categories(callerOf(req), query);
    if (categories.length === 0) throw AppError.noResults('categories');
    res.json(categories.map(presentCategory));
  });

  router.get('/products/categories/:id', async (req, res) => {
    res.json(presentCategory(await services.categories.get(callerOf(req), pathId(req, 'Category'))));
  });

  router.get('/products/:id', async (req, res) => {
    res.json(presentProductDetail(await catalogue.product(callerOf(req), pathId(req, 'Product')), defaultImage));
  });

  return router;
}
