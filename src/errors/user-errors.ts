import { GridError } from './grid-error';

export class InvalidUserError extends GridError {
  constructor(message: string) { super(400, 'INVALID_USER', message); }
}

export class UserNotFoundError extends GridError {
  constructor(name: string) { super(404, 'USER_NOT_FOUND', `User '${name}' not found`); }
}
