// PayPal's error answers, in its shape (name, message, details[].issue), as the fake's REST API
// sends them (rest.ts) and its model throws them.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly name_: string,
    message: string,
    readonly issue?: string,
  ) {
    super(message);
  }
}

/** PayPal's answer for an unknown plan or subscription. */
export const notFound = () =>
  new ApiError(
    404,
    'RESOURCE_NOT_FOUND',
    'The specified resource does not exist.',
    'INVALID_RESOURCE_ID',
  );
/** PayPal's answer for a request its business rules refuse. */
export const unprocessable = (
  issue: string,
  message = 'The requested action could not be performed.',
) => new ApiError(422, 'UNPROCESSABLE_ENTITY', message, issue);
