/** The parts of an OpenAPI 3.1 document grid writes (https://spec.openapis.org/oas/v3.1.0). */

export interface JsonSchema {
  type?: 'string' | 'integer' | 'boolean' | 'array';
  enum?: readonly string[];
  items?: JsonSchema;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description: string;
  schema: JsonSchema;
  explode?: boolean;
}

export type OpenApiContent = Record<string, Record<string, never>>;

export interface OpenApiResponse {
  description: string;
  content?: OpenApiContent;
}

/** One entry of `x-actions`: an `?action=` value the operation accepts and what it asks of the caller. */
export interface ActionSummary {
  action: string;
  summary: string;
  permission: string;
  parameters?: string[];
  deprecated?: boolean;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { description?: string; content: OpenApiContent };
  responses: Record<string, OpenApiResponse>;
  security?: Array<Record<string, string[]>>;
  deprecated?: boolean;
  /** The permission the caller needs: one name, or one per `?action=` ("(none)": without action). */
  'x-permission': string | Record<string, string>;
  'x-actions'?: ActionSummary[];
  /** Acts on one container: with tenants, also under `/rest/<tenant>/…` for that tenant's. */
  'x-per-container'?: boolean;
}

export type OpenApiPathItem = Partial<Record<'get' | 'head' | 'post' | 'put' | 'delete' | 'options', OpenApiOperation>>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  tags: Array<{ name: string }>;
  paths: Record<string, OpenApiPathItem>;
  components: { securitySchemes: Record<string, { type: 'http'; scheme: string; description: string }> };
  security: Array<Record<string, string[]>>;
}
