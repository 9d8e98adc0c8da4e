export { auditRoutes } from './audit.routes.js';
export { auditJobs } from './audit.jobs.js';
export { auditLog, listDeploymentAuditLog, recordAudit } from './audit.service.js';
export { presentAdminAuditEntry, presentAuditPage } from './audit.presenter.js';
export { adminAuditPageSchema, adminListAuditQuerySchema, type AdminListAuditQuery } from './audit.schemas.js';
