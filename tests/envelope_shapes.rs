//! Every provider's call envelope, read into a `Call`: the shapes, the SDK dumps' extra and
//! null fields, arguments as text, and every envelope problem with its exact text.

use std::borrow::Cow;
use toolgate::envelope::read_call;
use toolgate::json::Limits;
use toolgate::Part;

/// What `read_call` made of `raw`, in one line: `id=… name=… args=…` or `label: text`.
fn read(raw: &str) -> String {
    match read_call(raw, Limits::default()) {
        Ok(call) => format!(
            "id={} name={} args={}",
            call.id.as_deref().unwrap_or("-"),
            call.name,
            call.args
        ),
        Err(rejection) => format!("{}: {rejection}", rejection.kind().label()),
    }
}

fn check(cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (raw, expect) in cases {
        let got = read(raw);
        if got != *expect {
            failures.push(format!("input:  {raw}\nexpect: {expect}\ngot:    {got}\n"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_exercise_and_mcp_shape() {
    check(&[
        (
            r#"{"name":"get_weather","arguments":{"city":"Oslo"}}"#,
            r#"id=- name=get_weather args={"city":"Oslo"}"#,
        ),
        // An id is kept when the shape carries one.
        (
            r#"{"id":"c1","name":"get_weather","arguments":{"city":"Oslo"}}"#,
            r#"id=c1 name=get_weather args={"city":"Oslo"}"#,
        ),
        // Absent and null arguments are {}.
        (r#"{"name":"list_all"}"#, "id=- name=list_all args={}"),
        (
            r#"{"name":"list_all","arguments":null}"#,
            "id=- name=list_all args={}",
        ),
        // Arguments as text, as flattened OpenAI logs write them.
        (
            r#"{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}"#,
            r#"id=- name=get_weather args={"city":"Oslo"}"#,
        ),
        // Other homes for the arguments: Anthropic's without its type, Gemini's, Llama's.
        (
            r#"{"name":"f","input":{"a":1}}"#,
            r#"id=- name=f args={"a":1}"#,
        ),
        (
            r#"{"name":"f","args":{"a":1}}"#,
            r#"id=- name=f args={"a":1}"#,
        ),
        (
            r#"{"name":"f","parameters":{"a":1}}"#,
            r#"id=- name=f args={"a":1}"#,
        ),
        // Only "arguments" holds text; a string under "input" is a string (gate 2 refuses).
        (
            r#"{"name":"f","input":"{\"a\":1}"}"#,
            r#"id=- name=f args="{\"a\":1}""#,
        ),
        // Whitespace anywhere JSON allows it.
        (
            " \n{ \"name\" : \"f\" ,\r\n\t\"arguments\" : { \"a\" : [ 1 , 2 ] } } \n",
            r#"id=- name=f args={"a":[1,2]}"#,
        ),
        // Unknown fields are ignored, whatever they hold.
        (
            r#"{"name":"f","meta":{"progressToken":7,"x":[{"y":null}]},"task":null,"arguments":{}}"#,
            "id=- name=f args={}",
        ),
    ]);
}

#[test]
fn openai_chat() {
    check(&[
        (
            r#"{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}"#,
            r#"id=call_1 name=get_weather args={"city":"Oslo"}"#,
        ),
        // The SDK's model_dump(): extra and null fields, any key order.
        (
            r#"{"id":"call_1","function":{"arguments":"{}","name":"f","parsed_arguments":null},"type":"function","index":0}"#,
            "id=call_1 name=f args={}",
        ),
        // Without "type" (some logs drop it).
        (
            r#"{"id":"call_1","function":{"name":"f","arguments":"{\"a\":1}"}}"#,
            r#"id=call_1 name=f args={"a":1}"#,
        ),
        // Arguments already an object (LiteLLM and friends).
        (
            r#"{"id":"call_1","type":"function","function":{"name":"f","arguments":{"a":1}}}"#,
            r#"id=call_1 name=f args={"a":1}"#,
        ),
        // Text that is JSON but not an object is read; the object gate refuses it.
        (
            r#"{"id":"call_1","type":"function","function":{"name":"f","arguments":"null"}}"#,
            "id=call_1 name=f args=null",
        ),
        (
            r#"{"id":"call_1","type":"function","function":{"name":"f","arguments":"[1]"}}"#,
            "id=call_1 name=f args=[1]",
        ),
        // Escapes at both levels: \\n inside the text, \u00e9 in the raw call.
        (
            r#"{"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"note\":\"a\\nb\",\"city\":\"Montr\u00e9al\",\"emoji\":\"\\ud83d\\ude00\"}"}}"#,
            r#"id=call_1 name=f args={"note":"a\nb","city":"Montréal","emoji":"😀"}"#,
        ),
    ]);
}

#[test]
fn anthropic_tool_use() {
    check(&[
        (
            r#"{"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Oslo"}}"#,
            r#"id=toolu_01 name=get_weather args={"city":"Oslo"}"#,
        ),
        // The SDK's dump adds fields, some null.
        (
            r#"{"id":"toolu_01","input":{},"name":"f","type":"tool_use","caller":null,"cache_control":null}"#,
            "id=toolu_01 name=f args={}",
        ),
        // "arguments" is not where Anthropic keeps them: ignored.
        (
            r#"{"type":"tool_use","id":"toolu_01","name":"f","input":{"a":1},"arguments":"x"}"#,
            r#"id=toolu_01 name=f args={"a":1}"#,
        ),
        // A string input is not text to parse: the object gate refuses it.
        (
            r#"{"type":"tool_use","id":"toolu_01","name":"f","input":"{}"}"#,
            r#"id=toolu_01 name=f args="{}""#,
        ),
    ]);
}

#[test]
fn openai_responses() {
    check(&[
        // The call id is call_id; id is the item's own fc_… id.
        (
            r#"{"type":"function_call","id":"fc_1","call_id":"call_9","name":"f","arguments":"{\"a\":1}","status":"completed"}"#,
            r#"id=call_9 name=f args={"a":1}"#,
        ),
        (
            r#"{"arguments":"{}","call_id":"call_9","name":"f","type":"function_call","id":null,"status":null}"#,
            "id=call_9 name=f args={}",
        ),
    ]);
}

#[test]
fn gemini_and_openai_legacy() {
    check(&[
        (
            r#"{"functionCall":{"name":"f","args":{"a":1}}}"#,
            r#"id=- name=f args={"a":1}"#,
        ),
        (
            r#"{"functionCall":{"id":"g1","name":"f","args":{"a":1}},"thoughtSignature":"abc"}"#,
            r#"id=g1 name=f args={"a":1}"#,
        ),
        // google-genai's model_dump() of a Part: snake case, every absent field null.
        (
            r#"{"video_metadata":null,"thought":null,"inline_data":null,"file_data":null,"thought_signature":null,"function_call":{"id":null,"args":{"a":1},"name":"f","partial_args":null,"will_continue":null},"code_execution_result":null,"executable_code":null,"function_response":null,"text":null}"#,
            r#"id=- name=f args={"a":1}"#,
        ),
        // OpenAI's legacy function_call: arguments as text.
        (
            r#"{"function_call":{"name":"f","arguments":"{\"a\":1}"}}"#,
            r#"id=- name=f args={"a":1}"#,
        ),
        (r#"{"functionCall":{"name":"f"}}"#, "id=- name=f args={}"),
    ]);
}

#[test]
fn arguments_text_that_is_not_json() {
    check(&[
        (
            r#"{"id":"call_1","type":"function","function":{"name":"get_shipment","arguments":""}}"#,
            "truncated_json: The arguments of get_shipment are empty, as if cut off before they \
             began. Send them as one JSON object; if the call is long, make it smaller, with \
             fewer or shorter items.",
        ),
        (
            r#"{"id":"call_1","type":"function","function":{"name":"search_orders","arguments":"{\"customer_id\":\"CUS-7\",\"statu"}}"#,
            "truncated_json: The arguments of search_orders were cut off after 29 bytes, inside \
             a string. Do not send the same call again: make it smaller, with fewer or shorter \
             items.",
        ),
        (
            r#"{"id":"call_1","type":"function","function":{"name":"search_orders","arguments":"{'customer_id':'CUS-7'}"}}"#,
            "malformed_json: The arguments of search_orders are not valid JSON: expected a \
             string key or '}' at line 1, column 2, found '\\''. Send the arguments again as \
             one JSON object.",
        ),
    ]);
}

#[test]
fn calls_that_are_not_json_keep_what_could_be_read() {
    check(&[
        (
            r#"{"type":"tool_use","id":"toolu_01","name":"lookup_policy","input":{"topic":"What happens if"#,
            "truncated_json: The call to lookup_policy was cut off after 91 bytes, inside a \
             string. Do not send the same call again: make it smaller, with fewer or shorter \
             items.",
        ),
        (
            r#"{"id":"call_1","type":"function","function":{"name":"send_email","arguments":"{\"to\":\"a@b.c\",\"body\":\"Hi"#,
            "truncated_json: The call to send_email was cut off after 109 bytes, inside a \
             string. Do not send the same call again: make it smaller, with fewer or shorter \
             items.",
        ),
        (
            r#"{"name":"g"#,
            "truncated_json: The call was cut off after 10 bytes, inside a string. Do not send \
             the same call again: make it smaller, with fewer or shorter items.",
        ),
        (
            "",
            "truncated_json: The call is empty, as if cut off before it began. Send it as one \
             JSON object; if the call is long, make it smaller, with fewer or shorter items.",
        ),
        (
            r#"{"name":"f","arguments":{"a":1}x}"#,
            "malformed_json: The call to f is not valid JSON: expected ',' or '}' after an \
             object member at line 1, column 32, found 'x'. Send the call again as one valid \
             JSON object.",
        ),
        (
            r#"{"name":"f","arguments":{"a":1}} {}"#,
            "malformed_json: The call to f is not valid JSON: expected the end of the input \
             after the JSON value at line 1, column 34, found '{'. Send the call again as one \
             valid JSON object.",
        ),
    ]);
}

#[test]
fn the_id_survives_a_cut() {
    for (raw, id, tool) in [
        (
            r#"{"type":"tool_use","id":"toolu_01","name":"lookup_policy","input":{"topic":"Wh"#,
            Some("toolu_01"),
            Some("lookup_policy"),
        ),
        (
            r#"{"id":"call_1","type":"function","function":{"name":"send_email","argu"#,
            Some("call_1"),
            Some("send_email"),
        ),
        (
            r#"{"type":"function_call","id":"fc_1","call_id":"call_9","name":"f","arguments":"{\"a"#,
            Some("call_9"),
            Some("f"),
        ),
        (
            r#"{"functionCall":{"id":"g1","name":"f","args":{"a":"#,
            Some("g1"),
            Some("f"),
        ),
        (r#"{"id":"call_1","typ"#, Some("call_1"), None),
        (r#"{"id":"call_"#, None, None),
    ] {
        let rejection = read_call(raw, Limits::default()).unwrap_err();
        assert_eq!(rejection.kind().label(), "truncated_json", "{raw}");
        assert_eq!(rejection.id(), id, "{raw}");
        assert_eq!(rejection.tool(), tool, "{raw}");
    }
    // Inside the arguments text, the id and name come from the complete envelope.
    let raw = r#"{"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a"}}"#;
    let rejection = read_call(raw, Limits::default()).unwrap_err();
    assert_eq!(rejection.id(), Some("call_1"));
    assert_eq!(rejection.tool(), Some("f"));
    assert!(matches!(
        rejection,
        toolgate::Rejection::TruncatedJson {
            part: Part::Arguments,
            ..
        }
    ));
}

#[test]
fn envelopes_toolgate_cannot_read() {
    check(&[
        (
            "[1]",
            "bad_envelope: The call is an array, not a JSON object. Send one object: \
             {\"name\": \"<tool>\", \"arguments\": {...}}.",
        ),
        (
            "null",
            "bad_envelope: The call is null, not a JSON object. Send one object: \
             {\"name\": \"<tool>\", \"arguments\": {...}}.",
        ),
        (
            r#"{"arguments":{}}"#,
            "bad_envelope: The call has no \"name\", so no tool can be chosen. Send one object: \
             {\"name\": \"<tool>\", \"arguments\": {...}}.",
        ),
        (
            r#"{"name":null,"arguments":{}}"#,
            "bad_envelope: The call has no \"name\", so no tool can be chosen. Send one object: \
             {\"name\": \"<tool>\", \"arguments\": {...}}.",
        ),
        (
            r#"{"name":42,"arguments":{}}"#,
            "bad_envelope: The call's \"name\" must be a string; received 42. Send the call \
             again with \"name\" as a string.",
        ),
        (
            r#"{"id":7,"name":"f"}"#,
            "bad_envelope: The call's \"id\" must be a string; received 7. Send the call again \
             with \"id\" as a string.",
        ),
        (
            r#"{"type":"function","id":"call_1"}"#,
            "bad_envelope: The call has no \"function.name\", so no tool can be chosen. Send \
             the tool's name there, as a string.",
        ),
        (
            r#"{"type":"function","id":"call_1","function":"f"}"#,
            "bad_envelope: The call's \"function\" must be an object; received \"f\". Send the \
             call again with \"function\" as an object.",
        ),
        (
            r#"{"type":"function","id":"call_1","function":{"arguments":"{}"}}"#,
            "bad_envelope: The call has no \"function.name\", so no tool can be chosen. Send \
             the tool's name there, as a string.",
        ),
        (
            r#"{"functionCall":{"name":["f"]}}"#,
            "bad_envelope: The call's \"functionCall.name\" must be a string; received [\"f\"]. \
             Send the call again with \"functionCall.name\" as a string.",
        ),
        (
            r#"{"type":"text","text":"Let me check."}"#,
            "bad_envelope: The call's \"type\" is \"text\", which is not a tool call: expected \
             \"tool_use\", \"function_call\" or \"function\". Send a tool call.",
        ),
        (
            r#"{"type":1,"name":"f"}"#,
            "bad_envelope: The call's \"type\" must be a string; received 1. Send the call \
             again with \"type\" as a string.",
        ),
        (
            r#"{"name":"f","arguments":{},"input":{}}"#,
            "bad_envelope: The call gives both \"arguments\" and \"input\", which mean the same \
             thing. Send only \"arguments\".",
        ),
        (
            r#"{"functionCall":{"name":"f","args":{},"arguments":"{}"}}"#,
            "bad_envelope: The call gives both \"functionCall.args\" and \
             \"functionCall.arguments\", which mean the same thing. Send only \
             \"functionCall.args\".",
        ),
        (
            r#"{"functionCall":{"name":"f"},"function_call":{"name":"f"}}"#,
            "bad_envelope: The call gives both \"functionCall\" and \"function_call\", which \
             mean the same thing. Send only \"functionCall\".",
        ),
    ]);
}

#[test]
fn a_call_that_names_its_tool_twice_is_refused() {
    // A top-level "name" beside a nested call object would name two tools: which one runs
    // would be a guess. (It is also what lets a streamed call be refused at an unknown
    // top-level name: in every call that is accepted, that name is the one that counts.)
    check(&[
        (
            r#"{"name":"g","id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}"#,
            "bad_envelope: The call gives both \"function.name\" and \"name\", which mean the \
             same thing. Send only \"function.name\".",
        ),
        (
            r#"{"id":"call_1","function":{"name":"f","arguments":"{}"},"name":"f"}"#,
            "bad_envelope: The call gives both \"function.name\" and \"name\", which mean the \
             same thing. Send only \"function.name\".",
        ),
        (
            r#"{"functionCall":{"id":"g1","name":"f","args":{}},"name":"g"}"#,
            "bad_envelope: The call gives both \"functionCall.name\" and \"name\", which mean \
             the same thing. Send only \"functionCall.name\".",
        ),
        (
            r#"{"name":"g","function_call":{"name":"f","arguments":"{}"}}"#,
            "bad_envelope: The call gives both \"function_call.name\" and \"name\", which mean \
             the same thing. Send only \"function_call.name\".",
        ),
        // A null name is an absent one.
        (
            r#"{"name":null,"type":"function","id":"c","function":{"name":"f","arguments":"{}"}}"#,
            "id=c name=f args={}",
        ),
    ]);
}

#[test]
fn duplicate_keys_in_the_envelope_are_refused() {
    check(&[
        (
            r#"{"name":"f","name":"g","arguments":{}}"#,
            "bad_envelope: The call gives \"name\" twice, and readers disagree on which one \
             counts. Send each key once.",
        ),
        // The same key spelled with an escape is the same key.
        (
            r#"{"name":"f","n\u0061me":"g"}"#,
            "bad_envelope: The call gives \"name\" twice, and readers disagree on which one \
             counts. Send each key once.",
        ),
        // Keys toolgate ignores count too, and null does not make a key absent here.
        (
            r#"{"name":"f","meta":1,"meta":null}"#,
            "bad_envelope: The call gives \"meta\" twice, and readers disagree on which one \
             counts. Send each key once.",
        ),
        (
            r#"{"id":"call_1","type":"function","function":{"name":"f","arguments":"{}","name":"g"}}"#,
            "bad_envelope: The call gives \"function.name\" twice, and readers disagree on \
             which one counts. Send each key once.",
        ),
    ]);
    // Past the inline key table (16 keys), duplicates are still found.
    let mut raw = String::from(r#"{"name":"f""#);
    for index in 0..40 {
        raw.push_str(&format!(r#","k{index}":{index}"#));
    }
    assert_eq!(read(&format!("{raw}}}")), "id=- name=f args={}");
    raw.push_str(r#","k7":0}"#);
    assert_eq!(
        read(&raw),
        "bad_envelope: The call gives \"k7\" twice, and readers disagree on which one counts. \
         Send each key once."
    );
    // Duplicates inside the arguments are not the envelope's business (the spec refuses
    // them at gate 3).
    assert_eq!(
        read(r#"{"name":"f","arguments":{"a":1,"a":2}}"#),
        r#"id=- name=f args={"a":1,"a":2}"#
    );
}

#[test]
fn a_call_borrows_its_strings_from_the_raw_text() {
    let raw = r#"{"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"city\":\"Oslo\",\"n\":5,\"note\":\"a\\nb\"}"}}"#;
    let call = read_call(raw, Limits::default()).unwrap();
    assert!(matches!(call.id, Some(Cow::Borrowed("call_1"))));
    assert!(matches!(call.name, Cow::Borrowed("f")));
    let members = call.args.as_object().unwrap();
    // Keys and plain strings of the arguments text are borrowed from the raw call, not
    // copied out of the unescaped buffer; a string with its own escape owns its text.
    assert!(members
        .iter()
        .all(|(key, _)| matches!(key, Cow::Borrowed(_))));
    assert!(matches!(
        &members[0].1,
        toolgate::json::Value::String(Cow::Borrowed("Oslo"))
    ));
    assert!(matches!(
        &members[2].1,
        toolgate::json::Value::String(Cow::Owned(note)) if note == "a\nb"
    ));
}

#[test]
fn limits_apply_to_the_call_and_to_its_arguments_text() {
    let limits = Limits {
        max_depth: 3,
        max_bytes: 200,
    };
    // Depth 3: the call, its arguments, one more level.
    assert!(read_call(r#"{"name":"f","arguments":{"a":[1]}}"#, limits).is_ok());
    let deep = read_call(r#"{"name":"f","arguments":{"a":[[1]]}}"#, limits).unwrap_err();
    assert_eq!(
        deep.to_string(),
        "The call to f cannot be read: nesting deeper than 3 levels at line 1, column 31. Send \
         a smaller call, with fewer or shorter items and less nesting."
    );
    // The arguments text is a document of its own, under the same limits.
    let text =
        r#"{"type":"function","id":"c","function":{"name":"f","arguments":"{\"a\":[[1]]}"}}"#;
    assert!(read_call(text, limits).is_ok());
    let text =
        r#"{"type":"function","id":"c","function":{"name":"f","arguments":"{\"a\":[[[1]]]}"}}"#;
    assert_eq!(
        read_call(text, limits).unwrap_err().kind().label(),
        "malformed_json"
    );
    let long = format!(
        r#"{{"name":"f","arguments":{{"a":"{}"}}}}"#,
        "x".repeat(200)
    );
    assert_eq!(
        read_call(&long, limits).unwrap_err().to_string(),
        "The call cannot be read: the input is 233 bytes, more than the limit of 200 bytes. \
         Send a smaller call, with fewer or shorter items and less nesting."
    );
}
