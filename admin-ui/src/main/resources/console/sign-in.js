import { shell, showMessage } from "/console/console.js";

shell();
const form = document.getElementById("sign-in");
form.addEventListener("submit", async event => {
  event.preventDefault();
  const token = document.getElementById("token").value.trim();
  const response = await fetch("/api/whoami", { headers: { "Authorization": "Bearer " + token } });
  if (response.ok) {
    sessionStorage.setItem("buzz-operator-token", token);
    location.href = "/console/flags.html";
  } else {
    showMessage(document.getElementById("message"), "error", "That token was not accepted.");
  }
});
