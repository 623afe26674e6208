import { User, UserToken } from '../modules/users/entities';
import { Project, ProjectMember } from '../modules/projects/entities';
import { Domain } from '../modules/domains/entities';

export const entities = [User, UserToken, Project, ProjectMember, Domain];
