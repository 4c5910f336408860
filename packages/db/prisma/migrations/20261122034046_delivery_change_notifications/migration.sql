-- Change notifications for the delivery API's response caches (apps/delivery-api,
-- README "Caching"). Every writer, in any process, announces what it changed on
-- commit; each delivery instance LISTENs and marks its cached responses stale.
-- Payload: the id of the changed component (channel component_changed) or flow
-- (channel flow_changed). PostgreSQL folds identical notifications of one
-- transaction into one, and drops them all on rollback.
-- Hand-written: Prisma's schema language cannot declare triggers, and its diff
-- ignores them, so the schema and the migrations stay in sync.

CREATE OR REPLACE FUNCTION "notify_component_row_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('component_changed', OLD."id"::text);
  ELSE
    PERFORM pg_notify('component_changed', NEW."id"::text);
  END IF;
  RETURN NULL;
END;
$$;

-- variants and releases: the component they belong to.
CREATE OR REPLACE FUNCTION "notify_component_child_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('component_changed', OLD."component_id"::text);
  ELSE
    PERFORM pg_notify('component_changed', NEW."component_id"::text);
    IF TG_OP = 'UPDATE' AND OLD."component_id" IS DISTINCT FROM NEW."component_id" THEN
      PERFORM pg_notify('component_changed', OLD."component_id"::text);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

-- flows and their component lists: the flow.
CREATE OR REPLACE FUNCTION "notify_flow_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'flows' THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM pg_notify('flow_changed', OLD."id"::text);
    ELSE
      PERFORM pg_notify('flow_changed', NEW."id"::text);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('flow_changed', OLD."flow_id"::text);
  ELSE
    PERFORM pg_notify('flow_changed', NEW."flow_id"::text);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "components_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "components"
  FOR EACH ROW EXECUTE FUNCTION "notify_component_row_changed"();

CREATE TRIGGER "variants_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "variants"
  FOR EACH ROW EXECUTE FUNCTION "notify_component_child_changed"();

CREATE TRIGGER "releases_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "releases"
  FOR EACH ROW EXECUTE FUNCTION "notify_component_child_changed"();

CREATE TRIGGER "flows_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "flows"
  FOR EACH ROW EXECUTE FUNCTION "notify_flow_changed"();

CREATE TRIGGER "flow_components_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "flow_components"
  FOR EACH ROW EXECUTE FUNCTION "notify_flow_changed"();
