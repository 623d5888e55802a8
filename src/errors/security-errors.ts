import { defineError } from './define-error';

export class RoleExistsError extends defineError({ code: 'ROLE_EXISTS', status: 409, ispn: 'ISPN012049', text: () => 'Role already exists' }) {}

export class RoleNotFoundError extends defineError({ code: 'ROLE_NOT_FOUND', status: 404 }) {}

export class PredefinedRoleError extends defineError({
  code: 'PREDEFINED_ROLE', status: 400, ispn: 'ISPN012050', text: () => 'Predefined roles are not mutable',
}) {}

export class PrincipalExistsError extends defineError({ code: 'PRINCIPAL_EXISTS', status: 409 }) {}

/** The security endpoints on a server started without authorization. */
export class AuthorizationDisabledError extends defineError({
  code: 'AUTHORIZATION_DISABLED', status: 400, ispn: 'ISPN012027',
  text: () => 'Security authorization is not enabled on this server.',
}) {}

export class UnknownPermissionError extends defineError({
  code: 'UNKNOWN_PERMISSION', status: 400,
  text: (name: string) => `No enum constant org.infinispan.security.AuthorizationPermission.${name}`,
}) {}
