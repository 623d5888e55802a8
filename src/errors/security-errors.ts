import { GridError } from './grid-error';

export class RoleExistsError extends GridError {
  constructor() { super(409, 'ROLE_EXISTS', 'ISPN012049: Role already exists'); }
}

export class RoleNotFoundError extends GridError {
  constructor() { super(404, 'ROLE_NOT_FOUND', ''); }
}

export class PredefinedRoleError extends GridError {
  constructor() { super(400, 'PREDEFINED_ROLE', 'ISPN012050: Predefined roles are not mutable'); }
}

export class PrincipalExistsError extends GridError {
  constructor() { super(409, 'PRINCIPAL_EXISTS', ''); }
}

/** The security endpoints on a server started without authorization. */
export class AuthorizationDisabledError extends GridError {
  constructor() { super(400, 'AUTHORIZATION_DISABLED', 'ISPN012027: Security authorization is not enabled on this server.'); }
}

export class UnknownPermissionError extends GridError {
  constructor(name: string) { super(400, 'UNKNOWN_PERMISSION', `No enum constant org.infinispan.security.AuthorizationPermission.${name}`); }
}
