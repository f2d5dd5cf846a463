//! Whole turns in every provider's form, as the official SDKs dump them (every field, `null`
//! when unset, fields of their own): which elements are calls, in what order, with which id
//! and verdict, and which text passes through; and the exact text of every turn that cannot
//! be read.
#![cfg(feature = "turns")]

use std::borrow::Cow;
use toolgate::{Gate, Turn, TurnForm};

const TOOLS: &str = r#"[
  {"name": "get_weather", "description": "Current weather for a city.",
   "input_schema": {"type": "object",
     "properties": {"city": {"type": "string", "minLength": 1},
                    "units": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
     "required": ["city"], "additionalProperties": false}},
  {"name": "search_orders", "description": "Search a customer's orders.",
   "input_schema": {"type": "object",
     "properties": {"customer_id": {"type": "string"}},
     "required": ["customer_id"], "additionalProperties": false}}
]"#;

fn gate() -> Gate {
    Gate::from_tools_json(TOOLS).expect("the test's tools load")
}

/// The turn in a few plain lines: its form, its text parts, then one line per call in call
/// order: `ok TOOL ID` or `KIND TOOL ID` (`-` for what could not be read).
fn summary(turn: &Turn<'_>) -> String {
    let mut lines = vec![format!("{:?}", turn.form)];
    for text in &turn.text {
        lines.push(format!("text {text}"));
    }
    for call in &turn.calls {
        let verdict = match &call.verdict {
            Ok(_) => "ok",
            Err(rejection) => rejection.kind().label(),
        };
        lines.push(format!(
            "{verdict} {} {}",
            call.tool().unwrap_or("-"),
            call.id().unwrap_or("-")
        ));
    }
    lines.join("\n")
}

/// Reads `raw` as a turn and compares its summary with `expected`.
fn check(raw: &str, expected: &str) {
    match gate().check_turn(raw) {
        Ok(turn) => assert_eq!(summary(&turn), expected, "{raw}"),
        Err(error) => panic!("the turn was not read: {error}\n{raw}"),
    }
}

#[test]
fn openai_chat_message_as_the_sdk_dumps_it() {
    // `ChatCompletionMessage.model_dump()`: content null, refusal, annotations, audio, a
    // null legacy function_call; the second call misspells, the third has a wrong type.
    check(
        r#"{"content":null,"refusal":null,"role":"assistant","annotations":[],"audio":null,"function_call":null,
            "tool_calls":[
              {"id":"call_A","function":{"arguments":"{\"city\":\"Oslo\"}","name":"get_weather"},"type":"function"},
              {"id":"call_B","function":{"arguments":"{\"customer_id\":\"C-1\"}","name":"serch_orders"},"type":"function"},
              {"id":"call_C","function":{"arguments":"{\"city\":42}","name":"get_weather"},"type":"function"}]}"#,
        "OpenAiChat\n\
         ok get_weather call_A\n\
         unknown_tool serch_orders call_B\n\
         schema_violation get_weather call_C",
    );
}

#[test]
fn a_whole_chat_completion_reads_its_first_choice() {
    // `ChatCompletion.model_dump()` from `beta.chat.completions.parse()`: `parsed_arguments`
    // beside the arguments text, `parsed` on the message, and a second choice never read.
    check(
        r#"{"id":"chatcmpl-1","object":"chat.completion","created":1718000000,"model":"gpt-4o-2024-08-06",
            "choices":[
              {"finish_reason":"tool_calls","index":0,"logprobs":null,
               "message":{"content":"Let me look.","refusal":null,"role":"assistant","annotations":[],"audio":null,
                 "function_call":null,"parsed":null,
                 "tool_calls":[{"id":"call_A","function":{"arguments":"{\"city\":\"Oslo\"}","name":"get_weather",
                                "parsed_arguments":{"city":"Oslo"}},"type":"function"}]}},
              {"finish_reason":"stop","index":1,"logprobs":null,
               "message":{"content":"Other choice.","role":"assistant","tool_calls":null}}],
            "service_tier":"default","system_fingerprint":"fp_1",
            "usage":{"completion_tokens":17,"prompt_tokens":80,"total_tokens":97,
                     "completion_tokens_details":null,"prompt_tokens_details":null}}"#,
        "OpenAiChat\ntext Let me look.\nok get_weather call_A",
    );
}

#[test]
fn openai_tool_calls_accumulated_from_a_stream_keep_their_index() {
    // Deltas merged by hand keep each call's `index`, which the envelope ignores.
    check(
        r#"{"role":"assistant","content":"","tool_calls":[
              {"index":0,"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}},
              {"index":1,"id":"call_B","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Ro"}}]}"#,
        "OpenAiChat\ntext \nok get_weather call_A\ntruncated_json get_weather call_B",
    );
}

#[test]
fn an_openai_choice_alone_and_a_message_without_calls() {
    check(
        r#"{"finish_reason":"tool_calls","index":0,"message":{"role":"assistant","content":null,
            "tool_calls":[{"id":"call_A","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}}"#,
        "OpenAiChat\nschema_violation get_weather call_A",
    );
    check(
        r#"{"role":"assistant","content":"Oslo is sunny.","tool_calls":null}"#,
        "OpenAiChat\ntext Oslo is sunny.",
    );
    // Content in parts: the SDK's `tool_calls` (null) says it is OpenAI's; without it, a
    // content list is Anthropic's, read the same way.
    check(
        r#"{"role":"assistant","content":[{"type":"text","text":"In parts."},{"type":"refusal","refusal":"no"}],"tool_calls":null}"#,
        "OpenAiChat\ntext In parts.",
    );
    check(
        r#"{"role":"assistant","content":[{"type":"text","text":"In parts."}]}"#,
        "Anthropic\ntext In parts.",
    );
}

#[test]
fn openai_legacy_function_call_is_one_call_without_id() {
    check(
        r#"{"role":"assistant","content":null,"tool_calls":null,
            "function_call":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}"#,
        "OpenAiChat\nok get_weather -",
    );
}

#[test]
fn an_openai_call_whose_arguments_are_cut_off_keeps_its_id() {
    // finish_reason "length": the arguments text stops inside a string.
    let turn = gate()
        .check_turn(
            r#"{"role":"assistant","content":null,"tool_calls":[
              {"id":"call_A","type":"function","function":{"name":"search_orders","arguments":"{\"customer_id\":\"C-12"}}]}"#,
        )
        .expect("the turn reads");
    let rejection = turn.calls[0]
        .verdict
        .as_ref()
        .expect_err("the call is refused");
    assert_eq!(rejection.id(), Some("call_A"));
    assert_eq!(
        rejection.to_string(),
        "The arguments of search_orders were cut off after 20 bytes, inside a string. Do not \
         send the same call again: make it smaller, with fewer or shorter items."
    );
    // The same words as the call checked alone: the verdict is `check_call`'s.
    let alone = gate()
        .check_call(r#"{"id":"call_A","type":"function","function":{"name":"search_orders","arguments":"{\"customer_id\":\"C-12"}}"#)
        .expect_err("refused alone too");
    assert_eq!(rejection, &alone);
}

#[test]
fn anthropic_message_as_the_sdk_dumps_it() {
    // `Message.model_dump()`: thinking before the text, citations null, a tool_use with
    // `caller`, usage with server_tool_use null.
    check(
        r#"{"id":"msg_01","content":[
              {"signature":"EqQB...","thinking":"Two cities.","type":"thinking"},
              {"citations":null,"text":"I'll check both.","type":"text"},
              {"id":"toolu_01","input":{"city":"Oslo"},"name":"get_weather","type":"tool_use","caller":{"type":"direct"}},
              {"id":"toolu_02","input":{"city":"Rome","units":"kelvin"},"name":"get_weather","type":"tool_use"}],
            "model":"claude-sonnet-4-20250514","role":"assistant","stop_reason":"tool_use","stop_sequence":null,
            "type":"message","usage":{"cache_creation_input_tokens":0,"cache_read_input_tokens":0,
            "input_tokens":412,"output_tokens":96,"server_tool_use":null,"service_tier":"standard"}}"#,
        "Anthropic\n\
         text I'll check both.\n\
         ok get_weather toolu_01\n\
         schema_violation get_weather toolu_02",
    );
}

#[test]
fn anthropic_bare_content_list_and_server_tools_pass_by() {
    // Server tools run at Anthropic: their blocks are not calls to answer.
    check(
        r#"[{"type":"text","text":"Searching."},
            {"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"Oslo"}},
            {"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]},
            {"type":"redacted_thinking","data":"abc"},
            {"type":"tool_use","id":"toolu_03","name":"search_orders","input":["C-1"]}]"#,
        "Anthropic\ntext Searching.\narguments_not_object search_orders toolu_03",
    );
}

#[test]
fn responses_output_list_with_reasoning_and_a_message() {
    // `response.output`, dumped: a reasoning item, a message, function calls with their
    // item ids (`fc_…`) beside the call ids (`call_…`), status fields.
    check(
        r#"[{"id":"rs_01","summary":[],"type":"reasoning","encrypted_content":null,"status":null},
            {"id":"msg_01","content":[{"annotations":[],"text":"Looking it up.","type":"output_text","logprobs":[]}],
             "role":"assistant","status":"completed","type":"message"},
            {"arguments":"{\"city\":\"Oslo\",\"units\":\"celsius\"}","call_id":"call_A","name":"get_weather",
             "type":"function_call","id":"fc_01","status":"completed"},
            {"arguments":"","call_id":"call_B","name":"get_weather","type":"function_call","id":"fc_02","status":"incomplete"}]"#,
        "Responses\n\
         text Looking it up.\n\
         ok get_weather call_A\n\
         truncated_json get_weather call_B",
    );
}

#[test]
fn a_whole_responses_response_reads_its_output() {
    // The response object: its top-level `text` (format settings) and `tools` are not the
    // turn's text or calls.
    check(
        r#"{"id":"resp_01","created_at":1718000000.0,"error":null,"incomplete_details":null,"instructions":null,
            "metadata":{},"model":"gpt-4.1-2025-04-14","object":"response",
            "output":[{"arguments":"{\"customer_id\":\"C-9\"}","call_id":"call_Z","name":"search_orders",
                       "type":"function_call","id":"fc_09","status":"completed"},
                      {"type":"web_search_call","id":"ws_1","status":"completed"}],
            "parallel_tool_calls":true,"temperature":1.0,"tool_choice":"auto",
            "tools":[{"name":"search_orders","parameters":{},"strict":false,"type":"function","description":null}],
            "top_p":1.0,"text":{"format":{"type":"text"}},"usage":null,"user":null}"#,
        "Responses\nok search_orders call_Z",
    );
}

#[test]
fn gemini_response_with_thoughts_and_signatures() {
    // REST (camelCase): a thought part, a call carrying its `thoughtSignature`, a second
    // call with a wrong type; Gemini 2.x calls carry no id.
    check(
        r#"{"candidates":[{"content":{"parts":[
              {"text":"Two lookups.","thought":true},
              {"functionCall":{"name":"get_weather","args":{"city":"Oslo"}},"thoughtSignature":"CiQBVKhc7k..."},
              {"functionCall":{"name":"get_weather","args":{"city":7}}},
              {"text":"Done."}],"role":"model"},
            "finishReason":"STOP","index":0,"safetyRatings":[]}],
            "usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":20,"totalTokenCount":70,"thoughtsTokenCount":12},
            "modelVersion":"gemini-2.5-flash","responseId":"resp-1"}"#,
        "Gemini\ntext Done.\nok get_weather -\nschema_violation get_weather -",
    );
}

#[test]
fn gemini_google_genai_dump_snake_case_with_nulls() {
    // `GenerateContentResponse.model_dump(mode="json")`: every Part field, null when unset,
    // `function_call` in snake case with its own null `id`.
    check(
        r#"{"sdk_http_response":{"headers":{"content-type":"application/json"},"body":null},
            "candidates":[{"content":{"parts":[
               {"video_metadata":null,"thought":null,"inline_data":null,"file_data":null,"thought_signature":"CiQB",
                "code_execution_result":null,"executable_code":null,
                "function_call":{"id":null,"args":{"customer_id":"C-1"},"name":"search_orders"},
                "function_response":null,"text":null},
               {"video_metadata":null,"thought":null,"inline_data":null,"file_data":null,"thought_signature":null,
                "code_execution_result":null,"executable_code":null,
                "function_call":{"id":"fc-7","args":{},"name":"get_weather"},
                "function_response":null,"text":null}],
             "role":"model"},
             "citation_metadata":null,"finish_message":null,"token_count":null,"finish_reason":"STOP",
             "avg_logprobs":null,"grounding_metadata":null,"index":null,"logprobs_result":null,"safety_ratings":null}],
            "create_time":null,"response_id":null,"model_version":"gemini-2.5-flash","prompt_feedback":null,
            "usage_metadata":null,"automatic_function_calling_history":[],"parsed":null}"#,
        "Gemini\nok search_orders -\nschema_violation get_weather fc-7",
    );
}

#[test]
fn gemini_content_and_candidate_alone() {
    check(
        r#"{"role":"model","parts":[{"functionCall":{"id":"g1","name":"get_weather","args":{"city":"Oslo"}}},
            {"inlineData":{"mimeType":"image/png","data":"iVBO"}},{"executableCode":{"language":"PYTHON","code":"1"}}]}"#,
        "Gemini\nok get_weather g1",
    );
    check(
        r#"{"content":{"role":"model","parts":[{"text":"No call."}]},"finishReason":"STOP"}"#,
        "Gemini\ntext No call.",
    );
    // A candidate stopped for safety has no content: no calls, nothing to answer.
    check(
        r#"{"candidates":[{"finishReason":"SAFETY","index":0}]}"#,
        "Gemini",
    );
    check(r#"{"role":"model"}"#, "Gemini");
}

#[test]
fn a_list_of_single_calls_in_any_shapes() {
    // Mixed shapes, a broken element of each kind: a number, an object without a name,
    // JSON arguments text that is not JSON. Every element is answered.
    check(
        r#"[{"name":"get_weather","arguments":{"city":"Oslo"}},
            {"id":"call_2","type":"function","function":{"name":"search_orders","arguments":"{\"customer_id\":\"C-1\"}"}},
            {"functionCall":{"name":"get_weather","args":{"city":"Rome"}}},
            42,
            {"tool":"get_weather","args":{}},
            {"id":"call_6","type":"function","function":{"name":"get_weather","arguments":"{city: Oslo}"}}]"#,
        "Calls\n\
         ok get_weather -\n\
         ok search_orders call_2\n\
         ok get_weather -\n\
         bad_envelope - -\n\
         bad_envelope - -\n\
         malformed_json get_weather call_6",
    );
    check("[]", "Calls");
}

#[test]
fn a_call_key_given_twice_is_that_calls_rejection_not_the_turns() {
    check(
        r#"[{"type":"tool_use","id":"toolu_1","name":"get_weather","name":"search_orders","input":{}},
            {"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Oslo"}}]"#,
        "Anthropic\nbad_envelope - toolu_1\nok get_weather toolu_2",
    );
}

#[test]
fn the_form_says_which_provider_answers() {
    for (raw, form) in [
        (
            r#"{"role":"assistant","tool_calls":[]}"#,
            TurnForm::OpenAiChat,
        ),
        (r#"{"role":"assistant","content":[]}"#, TurnForm::Anthropic),
        (r#"{"output":[]}"#, TurnForm::Responses),
        (r#"{"parts":[]}"#, TurnForm::Gemini),
        ("[]", TurnForm::Calls),
    ] {
        let turn = gate().check_turn(raw).expect("the turn reads");
        assert_eq!(turn.form, form, "{raw}");
    }
    use toolgate::spec::Provider;
    assert_eq!(TurnForm::OpenAiChat.provider(), Some(Provider::OpenAi));
    assert_eq!(TurnForm::Anthropic.provider(), Some(Provider::Anthropic));
    assert_eq!(TurnForm::Responses.provider(), Some(Provider::Responses));
    assert_eq!(TurnForm::Gemini.provider(), Some(Provider::Gemini));
    assert_eq!(TurnForm::Calls.provider(), None);
}

#[test]
fn a_turn_that_cannot_be_read_says_what_was_expected_where_and_what_arrived() {
    let table = [
        (
            r#"{"role":"assistant","tool_calls":[{"id":"call_A""#,
            "Expected a whole assistant turn as JSON; the text stops short: the input ended \
             inside an object that starts at line 1, column 35.",
        ),
        (
            r#"{"role":"assistant",}"#,
            "Expected an assistant turn as JSON; expected a string key after ',' at line 1, \
             column 21, found '}'.",
        ),
        (
            // Inside a call's arguments, which the turn's reading does not build: still read.
            r#"[{"name":"get_weather","arguments":{"city":"Oslo",}}]"#,
            "Expected an assistant turn as JSON; expected a string key after ',' at line 1, \
             column 51, found '}'.",
        ),
        (
            "42",
            "Expected an assistant turn at the top level (an OpenAI chat message or \
             completion, an Anthropic message or content list, a Responses output list or \
             response, a Gemini content, candidate or response, or a list of calls); received \
             a number: 42.",
        ),
        (
            r#"{"name":"get_weather","arguments":{}}"#,
            "Expected an assistant turn at the top level (an OpenAI chat message or \
             completion, an Anthropic message or content list, a Responses output list or \
             response, a Gemini content, candidate or response, or a list of calls); received \
             an object with keys \"name\", \"arguments\".",
        ),
        (
            r#"{"role":"assistant","content":null,"tool_calls":{"id":"call_A"}}"#,
            "Expected a list of tool calls at `tool_calls`; received {\"id\":\"call_A\"}.",
        ),
        (
            r#"{"id":"chatcmpl-1","choices":[]}"#,
            "Expected a choice at `choices`; received an empty list.",
        ),
        (
            r#"{"choices":[{"index":0,"delta":{"content":"Hi"}}]}"#,
            "Expected the choice's assistant message at `choices.0.message`; received nothing.",
        ),
        (
            r#"{"choices":[{"message":{"role":"assistant","content":5}}]}"#,
            "Expected a string, null or a list of content parts at `choices.0.message.content`; \
             received 5.",
        ),
        (
            r#"{"candidates":[{"content":{"role":"model","parts":{"text":"x"}}}]}"#,
            "Expected a list of parts at `candidates.0.content.parts`; received {\"text\":\"x\"}.",
        ),
        (
            r#"{"candidates":"none"}"#,
            "Expected a list of candidates at `candidates`; received \"none\".",
        ),
        (
            r#"{"output":{"type":"message"}}"#,
            "Expected a list of output items at `output`; received {\"type\":\"message\"}.",
        ),
        (
            r#"{"role":"assistant","tool_calls":[],"tool_calls":[{"id":"call_A"}]}"#,
            "Expected `tool_calls` once; received it twice, and readers disagree on which one \
             counts.",
        ),
    ];
    for (raw, expected) in table {
        let error = gate().check_turn(raw).expect_err("the turn cannot be read");
        assert_eq!(error.to_string(), expected, "{raw}");
    }
}

#[test]
fn text_parts_are_kept_untouched() {
    let turn = gate()
        .check_turn(
            r#"{"role":"assistant","content":[{"type":"text","text":"Zürich \"quoted\"\n\u00e9 ✓"},
                {"type":"text","text":""}]}"#,
        )
        .expect("the turn reads");
    assert_eq!(turn.text, ["Zürich \"quoted\"\né ✓", ""]);
}

/// Each call is checked on its own bytes of the turn's text: what it holds is borrowed from
/// the turn (nothing was written back and read again), whitespace and escapes as the model
/// wrote them, and a cut arguments text is reported at the model's own byte.
#[test]
fn each_call_is_checked_on_its_own_bytes_of_the_turn() {
    let gate = gate();
    let raw = r#"{
      "role": "assistant",
      "tool_calls": [
        { "id" : "call_1", "type" : "function",
          "function" : { "name" : "get_weather", "arguments" : "{\"city\": \"Oslo\"}" } },
        { "id" : "call_2", "type" : "function",
          "function" : { "name" : "get_weather", "arguments" : "{\"city\": \"Os" } }
      ]
    }"#;
    let turn = gate.check_turn(raw).unwrap_or_else(|e| panic!("{e}"));
    let first = turn.calls.first().map(|call| &call.verdict);
    let Some(Ok(call)) = first else {
        panic!("{first:?}");
    };
    assert!(
        matches!(&call.id, Some(Cow::Borrowed("call_1"))),
        "{call:?}"
    );
    assert!(
        matches!(&call.name, Cow::Borrowed("get_weather")),
        "{call:?}"
    );
    let second = turn.calls.get(1).map(|call| &call.verdict);
    let Some(Err(rejection)) = second else {
        panic!("{second:?}");
    };
    assert_eq!(rejection.kind(), toolgate::RejectionKind::TruncatedJson);
    assert!(rejection.to_string().contains("12 bytes"), "{rejection}");
}

#[test]
fn members_the_form_does_not_read_may_hold_anything() {
    // Citations, cache controls and extra fields holding lists of objects stand before and
    // inside the calls: the text and every call, with its id and verdict, are still found
    // (each call's place among the turn's values is counted past what is not read).
    check(
        r#"{"role":"assistant","usage":{"list":[{"a":[{}]},{"b":{"c":[1,{}]}}]},"content":[
            {"type":"text","text":"First.","citations":[{"type":"char_location","cited_text":"x"},{"type":"web"}]},
            {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Oslo"},
             "cache_control":{"type":"ephemeral","ttl":[{"x":1}]}},
            {"type":"text","text":"Then.","extra":[[{"name":"not_a_call"}]]},
            {"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":""},"meta":[{"name":"x"}]},
            {"type":"tool_use","id":"toolu_3","name":"serch_orders","input":{"customer_id":"C-1"}}]}"#,
        "Anthropic\n\
         text First.\n\
         text Then.\n\
         ok get_weather toolu_1\n\
         schema_violation get_weather toolu_2\n\
         unknown_tool serch_orders toolu_3",
    );
}
