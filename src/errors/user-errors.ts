import { defineError } from './define-error';

export class InvalidUserError extends defineError({
  code: 'INVALID_USER', status: 400,
  text: (message: string) => message,
  summary: "what is wrong with the user's name, password or roles",
}) {}

export class UserNotFoundError extends defineError({
  code: 'USER_NOT_FOUND', status: 404,
  text: (name: string) => `User '${name}' not found`,
}) {}
