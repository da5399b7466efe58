import { FindingsError } from '../../app/errors/findings-error';

export type ProductsErrorCode = 'product_not_found' | 'product_exists' | 'repository_url_invalid';

export class ProductsError extends FindingsError<ProductsErrorCode> {
  constructor(code: ProductsErrorCode) {
    super(code);
  }
}
